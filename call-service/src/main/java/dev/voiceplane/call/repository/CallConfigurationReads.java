package dev.voiceplane.call.repository;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The delivery worker's reads of the configurations frozen at creation ({@code call_documents.configuration}, as
 * JSON text): plain JDBC on the datasource, as the rest of the worker's state ({@link DeliveryStore}), since the
 * worker runs off any request and its transaction.
 */
@ApplicationScoped
public class CallConfigurationReads {

    private final AgroalDataSource dataSource;
    private final String documents;

    public CallConfigurationReads(AgroalDataSource dataSource,
            @ConfigProperty(name = "quarkus.hibernate-orm.database.default-schema") String schema) {
        this.dataSource = dataSource;
        this.documents = schema + ".call_documents";
    }

    /** The call's configuration, empty when the organisation has no such call. */
    public Optional<String> configuration(String orgId, UUID callId) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("select cast(configuration as text) from "
                        + documents + " where org_id = ? and call_id = ?")) {
            select.setString(1, orgId);
            select.setObject(2, callId);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(rows.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("a call's configuration cannot be read", e);
        }
    }

    /**
     * The configurations of several calls, each of its own organisation ({@code orgByCall}: call id to organisation),
     * in one query; a call the organisation does not have is absent from the answer.
     */
    public Map<UUID, String> configurations(Map<UUID, String> orgByCall) {
        Map<UUID, String> found = new HashMap<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("select d.call_id,"
                        + " cast(d.configuration as text) from " + documents + " d"
                        + " join unnest(?::text[], ?::uuid[]) as m(org_id, call_id)"
                        + " on d.org_id = m.org_id and d.call_id = m.call_id")) {
            select.setArray(1, connection.createArrayOf("text", orgByCall.values().toArray()));
            select.setArray(2, connection.createArrayOf("uuid", orgByCall.keySet().toArray()));
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    found.put(rows.getObject(1, UUID.class), rows.getString(2));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the calls' configurations cannot be read", e);
        }
        return found;
    }
}
