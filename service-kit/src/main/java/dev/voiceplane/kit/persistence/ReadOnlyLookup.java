package dev.voiceplane.kit.persistence;

import io.quarkus.arc.Arc;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.hibernate.SessionFactory;
import org.hibernate.StatelessSession;
import org.hibernate.query.SelectionQuery;

/**
 * Reads outside a transaction (by primary key, and lists), through a {@link StatelessSession}: no persistence context, no load
 * events, no snapshot of the row for dirty checking, the connection held only for the statement. Outside a
 * transaction nothing a read returns can be written back anyway, so the entity being detached changes nothing for
 * the caller; inside one the repository keeps the managed read (the caller may change or delete the row).
 */
public final class ReadOnlyLookup {

    /** The entity class of each repository class; absent when it cannot be worked out (then the ORM read is used). */
    private static final ClassValue<Optional<Class<?>>> ENTITY = new ClassValue<>() {
        @Override
        protected Optional<Class<?>> computeValue(Class<?> repository) {
            return entityOf(repository);
        }
    };

    private static volatile SessionFactory sessions;

    private ReadOnlyLookup() {
    }

    /** The entity type an {@link OrgScopedRepository} implementation reads, if its declaration names it. */
    public static Optional<Class<?>> entityType(Class<?> repository) {
        return ENTITY.get(repository);
    }

    static <E> Optional<E> find(Class<E> type, OrgScopedId key) {
        try (StatelessSession session = sessions().openStatelessSession()) {
            return Optional.ofNullable(session.get(type, key));
        }
    }

    /**
     * The first {@code limit} rows of a query (HQL from {@code where} on), outside a transaction as
     * {@link #find} reads: the entities are detached, with no persistence context to fill.
     */
    public static <E> List<E> list(Class<E> type, String query, Map<String, Object> parameters, int limit) {
        try (StatelessSession session = sessions().openStatelessSession()) {
            SelectionQuery<E> select = session.createSelectionQuery("from " + type.getName() + " " + query, type);
            parameters.forEach(select::setParameter);
            return select.setMaxResults(limit).getResultList();
        }
    }

    /** The session factory, looked up once (also {@link SingleInsert}'s). */
    static SessionFactory sessions() {
        SessionFactory found = sessions;
        if (found == null) {
            found = Arc.container().instance(SessionFactory.class).get();
            sessions = found;
        }
        return found;
    }

    /** Walks the class and its superclasses (a CDI subclass extends the repository) for {@code OrgScopedRepository<E>}. */
    private static Optional<Class<?>> entityOf(Class<?> repository) {
        for (Class<?> type = repository; type != null && type != Object.class; type = type.getSuperclass()) {
            for (Type declared : type.getGenericInterfaces()) {
                if (declared instanceof ParameterizedType parameterized
                        && parameterized.getRawType() == OrgScopedRepository.class
                        && parameterized.getActualTypeArguments()[0] instanceof Class<?> entity) {
                    return Optional.of(entity);
                }
            }
        }
        return Optional.empty();
    }
}
