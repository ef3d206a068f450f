package dev.voiceplane.kit.http;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Tells a database that cannot be reached (down, restarting, failing over, out of connections) from everything else
 * that can go wrong with SQL. Only these are answered 503: a query the database refuses (a syntax error, a missing
 * table, a constraint) is a bug and stays a 500, so an outage never hides one.
 */
final class DatabaseFailures {

    /** Exceptions wrap each other (Hibernate, Narayana, Agroal); a bound keeps a pathological chain cheap. */
    private static final int MAX_DEPTH = 32;

    /**
     * SQLSTATEs of an unreachable database besides class 08 (connection exception): 57P01 admin_shutdown,
     * 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, shutting down, in recovery), 53300
     * too_many_connections.
     */
    private static final Set<String> UNAVAILABLE_STATES = Set.of("57P01", "57P02", "57P03", "53300");

    /**
     * What the pool (Agroal) throws when no connection could be had in time. It gives them no SQLSTATE; when it
     * could not connect at all it throws the driver's own exception (SQLSTATE 08001) instead.
     */
    private static final Set<String> POOL_TIMEOUTS = Set.of(
            "Acquisition timeout while waiting for new connection",
            "Sorry, acquisition timeout!");

    private DatabaseFailures() {
    }

    /** The SQL failure in {@code e}'s causes that says the database cannot be reached, or null when there is none. */
    static SQLException unreachable(Throwable e) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        return search(e, seen, 0);
    }

    private static SQLException search(Throwable e, Set<Throwable> seen, int depth) {
        if (e == null || depth > MAX_DEPTH || !seen.add(e)) {
            return null;
        }
        if (e instanceof SQLException sql && isUnreachable(sql)) {
            return sql;
        }
        SQLException found = search(e.getCause(), seen, depth + 1);
        if (found != null) {
            return found;
        }
        if (e instanceof SQLException sql) {
            found = search(sql.getNextException(), seen, depth + 1);
            if (found != null) {
                return found;
            }
        }
        // A commit that failed on a lost connection ends as a rollback exception with the cause suppressed.
        for (Throwable suppressed : e.getSuppressed()) {
            found = search(suppressed, seen, depth + 1);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static boolean isUnreachable(SQLException sql) {
        if (sql instanceof SQLTransientConnectionException || sql instanceof SQLNonTransientConnectionException) {
            return true;
        }
        String state = sql.getSQLState();
        if (state != null) {
            return state.startsWith("08") || UNAVAILABLE_STATES.contains(state);
        }
        return sql.getMessage() != null && POOL_TIMEOUTS.contains(sql.getMessage());
    }
}
