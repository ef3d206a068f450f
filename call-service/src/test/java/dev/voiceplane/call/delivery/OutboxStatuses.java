package dev.voiceplane.call.delivery;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/** What the outbox says of some messages, read straight from call-service's schema (the delivery tests' view). */
final class OutboxStatuses {

    private OutboxStatuses() {
    }

    /** Message id → status ({@code pending}, {@code delivering}, {@code delivered}, {@code dead}, ...). */
    static Map<String, String> of(DataSource dataSource, List<UUID> ids) throws Exception {
        Map<String, String> found = new HashMap<>();
        try (Connection connection = dataSource.getConnection(); PreparedStatement select = connection.prepareStatement(
                "select id::text, status from call.call_outbox where id = any(?)")) {
            select.setArray(1, connection.createArrayOf("uuid", ids.toArray()));
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    found.put(rows.getString(1), rows.getString(2));
                }
            }
        }
        return found;
    }
}
