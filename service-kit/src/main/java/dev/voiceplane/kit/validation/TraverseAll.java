package dev.voiceplane.kit.validation;

import io.quarkus.arc.Unremovable;
import jakarta.inject.Singleton;
import jakarta.validation.Path;
import jakarta.validation.TraversableResolver;
import java.lang.annotation.ElementType;

/**
 * Bean validation reaches and cascades into every property. With Hibernate ORM present, Quarkus's default asks JPA,
 * for every property of every validated object, whether it is loaded (the specification's rule for lazy entity
 * associations); what we validate are request bodies (records and plain classes), never entities with lazy
 * associations, so the answer is always yes, and asking cost a quarter of a {@code POST /assistant}'s validation
 * (BENCHMARKS.md, "Create path"). Quarkus's validator factory uses a bean of this type when there is one.
 */
@Singleton
@Unremovable
public class TraverseAll implements TraversableResolver {

    @Override
    public boolean isReachable(Object traversableObject, Path.Node traversableProperty, Class<?> rootBeanType,
            Path pathToTraversableObject, ElementType elementType) {
        return true;
    }

    @Override
    public boolean isCascadable(Object traversableObject, Path.Node traversableProperty, Class<?> rootBeanType,
            Path pathToTraversableObject, ElementType elementType) {
        return true;
    }
}
