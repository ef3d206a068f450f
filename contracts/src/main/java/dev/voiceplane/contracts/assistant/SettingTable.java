package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.validation.Messages;
import jakarta.validation.ConstraintValidatorContext;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Which providers of one stage take which setting, and what each accepts (the {@link ProviderSettings} rules): a
 * setting given for a provider that does not take it is refused, naming the providers that do; one a provider
 * requires must be there; a value must be one of the provider's values or inside its range, where it has them.
 */
final class SettingTable<T> {

    /** What one provider accepts for one setting: any value, one of a list, a range; required or not. */
    record Rule(Set<String> oneOf, BigDecimal min, BigDecimal max, boolean required) {

        static final Rule ANY = new Rule(null, null, null, false);
        static final Rule REQUIRED = new Rule(null, null, null, true);

        static Rule oneOf(Set<String> values) {
            return new Rule(values, null, null, false);
        }

        static Rule range(String min, String max) {
            return new Rule(null, new BigDecimal(min), new BigDecimal(max), false);
        }

        Rule andRequired() {
            return new Rule(oneOf, min, max, true);
        }
    }

    /** One provider's rule for a setting. */
    record By(List<String> providers, Rule rule) {
    }

    private record Setting<T>(String name, Function<T, Object> value, Map<String, Rule> byProvider,
            String takenBy) {
    }

    private final String noun;
    private final List<Setting<T>> settings = new ArrayList<>();

    /** {@code noun}: how a message names the stage's providers ({@code "voices"}). */
    SettingTable(String noun) {
        this.noun = noun;
    }

    static By by(String provider, Rule rule) {
        return new By(List.of(provider), rule);
    }

    static By by(List<String> providers, Rule rule) {
        return new By(providers, rule);
    }

    SettingTable<T> setting(String name, Function<T, Object> value, By... rules) {
        Map<String, Rule> byProvider = new LinkedHashMap<>();
        for (By by : rules) {
            for (String provider : by.providers()) {
                if (byProvider.put(provider, by.rule()) != null) {
                    throw new IllegalArgumentException(name + " has two rules for " + provider);
                }
            }
        }
        settings.add(new Setting<>(name, value, Collections.unmodifiableMap(byProvider),
                String.join(", ", new TreeSet<>(byProvider.keySet()))));
        return this;
    }

    /** The providers that take {@code name}, for documentation and tests. */
    Set<String> providersOf(String name) {
        return settings.stream().filter(setting -> setting.name().equals(name)).findFirst()
                .map(setting -> setting.byProvider().keySet()).orElseThrow();
    }

    /** Adds a violation for each setting of {@code value} that does not fit {@code provider} (a canonical name). */
    boolean check(T value, String provider, ConstraintValidatorContext context) {
        boolean valid = true;
        for (Setting<T> setting : settings) {
            Object given = setting.value().apply(value);
            Rule rule = setting.byProvider().get(provider);
            String problem = null;
            if (rule == null) {
                if (given != null) {
                    problem = "is only supported by " + setting.takenBy() + " " + noun;
                }
            } else if (given == null) {
                if (rule.required()) {
                    problem = "should not be null or undefined";
                }
            } else if (rule.oneOf() != null && given instanceof String text && !rule.oneOf().contains(text)) {
                problem = Messages.mustBeOneOf(rule.oneOf());
            } else if (given instanceof BigDecimal number && rule.min() != null && number.compareTo(rule.min()) < 0) {
                problem = "must not be less than " + rule.min().toPlainString();
            } else if (given instanceof BigDecimal number && rule.max() != null && number.compareTo(rule.max()) > 0) {
                problem = "must not be greater than " + rule.max().toPlainString();
            }
            if (problem != null) {
                Messages.onProperty(context, setting.name(), problem);
                valid = false;
            }
        }
        return valid;
    }
}
