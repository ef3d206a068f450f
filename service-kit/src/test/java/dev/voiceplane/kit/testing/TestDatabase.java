package dev.voiceplane.kit.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Direct looks at the test database, for tests that check what was (or was not) stored. */
public final class TestDatabase {

    private TestDatabase() {
    }

    /** The single number a {@code select count(*) ...} query answers, with its parameters bound in order. */
    public static long count(DataSource dataSource, String sql, Object... parameters) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
