package dev.voiceplane.kit.list;

import dev.voiceplane.kit.error.ApiException;
import jakarta.ws.rs.core.MultivaluedMap;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The list query of every collection: {@code limit} (0..1000, default 100) and the eight
 * {@code createdAt}/{@code updatedAt} comparisons, plus the equality filters an endpoint allows
 * ({@code assistantId} on calls). Any other query parameter is a 400, as an unknown body property is.
 */
public record ListParams(int limit, List<TimeFilter> timeFilters, Map<String, String> equalities) {

    public static final int DEFAULT_LIMIT = 100;
    public static final int MAX_LIMIT = 1000;

    /** One comparison of a timestamp column with a bound, e.g. {@code createdAt > 2024-01-01T00:00:00Z}. */
    public record TimeFilter(String parameter, String field, String operator, Instant bound) {
    }

    private static final Map<String, String> OPERATORS = Map.of("Gt", ">", "Lt", "<", "Ge", ">=", "Le", "<=");
    private static final List<String> TIME_FIELDS = List.of("createdAt", "updatedAt");

    public static ListParams parse(MultivaluedMap<String, String> query) {
        return parse(query, Set.of());
    }

    public static ListParams parse(MultivaluedMap<String, String> query, Set<String> allowedEqualities) {
        List<String> problems = new ArrayList<>();
        int limit = DEFAULT_LIMIT;
        List<TimeFilter> timeFilters = new ArrayList<>();
        Map<String, String> equalities = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
            String name = parameter.getKey();
            List<String> values = parameter.getValue();
            String value = values.size() == 1 ? values.getFirst() : null;
            if (name.equals("limit")) {
                limit = parseLimit(value, problems);
            } else if (timeFilter(name) != null) {
                String[] fieldAndOperator = timeFilter(name);
                Instant bound = parseInstant(value);
                if (bound == null) {
                    problems.add(name + " must be a valid ISO 8601 date string");
                } else {
                    timeFilters.add(new TimeFilter(name, fieldAndOperator[0], fieldAndOperator[1], bound));
                }
            } else if (allowedEqualities.contains(name)) {
                if (value == null || value.isBlank()) {
                    problems.add(name + " must be a single non-empty string");
                } else {
                    equalities.put(name, value);
                }
            } else {
                problems.add("property " + name + " should not exist");
            }
        }
        if (!problems.isEmpty()) {
            throw ApiException.invalid(problems);
        }
        return new ListParams(limit, List.copyOf(timeFilters), Map.copyOf(equalities));
    }

    private static int parseLimit(String value, List<String> problems) {
        if (value == null || !value.strip().matches("[+-]?\\d{1,10}")) {
            problems.add("limit must be an integer number");
            return DEFAULT_LIMIT;
        }
        long limit = Long.parseLong(value.strip());
        if (limit < 0) {
            problems.add("limit must not be less than 0");
        } else if (limit > MAX_LIMIT) {
            problems.add("limit must not be greater than " + MAX_LIMIT);
        }
        return (int) Math.max(0, Math.min(limit, MAX_LIMIT));
    }

    private static String[] timeFilter(String name) {
        for (String field : TIME_FIELDS) {
            if (name.length() == field.length() + 2 && name.startsWith(field)) {
                String operator = OPERATORS.get(name.substring(field.length()));
                if (operator != null) {
                    return new String[] {field, operator};
                }
            }
        }
        return null;
    }

    /** Bounds every stored timestamp can be compared with (PostgreSQL's timestamptz ends in year 294276). */
    private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

    /**
     * ISO 8601: a date-time with offset or {@code Z}, a local date-time (UTC) or a date (midnight UTC), in the
     * years 1 to 9999.
     */
    static Instant parseInstant(String value) {
        Instant parsed = parseIso(value);
        return parsed == null || parsed.isBefore(EARLIEST) || parsed.isAfter(LATEST) ? null : parsed;
    }

    private static Instant parseIso(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String text = value.strip();
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException notOffset) {
            try {
                return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException notLocal) {
                try {
                    return LocalDate.parse(text).atStartOfDay().toInstant(ZoneOffset.UTC);
                } catch (DateTimeParseException notDate) {
                    return null;
                }
            }
        }
    }
}
