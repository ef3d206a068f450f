package dev.voiceplane.call.rest;

import io.agroal.api.AgroalDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** What a call wrote to the outbox, read from the database. */
final class Outboxes {

    private Outboxes() {
    }

    /** The message types of a call's outbox rows, in their per-call order. */
    static List<String> types(AgroalDataSource dataSource, String callId) throws SQLException {
        return column(dataSource, "select message_type from call.call_outbox where call_id = ?::uuid order by seq", callId);
    }

    /** The payloads (JSON text) of a call's outbox rows of one type, in order. */
    static List<String> payloads(AgroalDataSource dataSource, String callId, String type) throws SQLException {
        return column(dataSource, "select payload::text from call.call_outbox where call_id = ?::uuid and message_type = ?"
                + " order by seq", callId, type);
    }

    static List<String> column(AgroalDataSource dataSource, String sql, Object... parameters) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection connection = dataSource.getConnection(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
        }
        return values;
    }

    static void execute(AgroalDataSource dataSource, String sql, Object... parameters) throws SQLException {
        try (Connection connection = dataSource.getConnection(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.execute();
        }
    }
}
