package dev.voiceplane.call.repository;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The queries of GET /call use the indexes made for them, on a table with tens of thousands of calls in many
 * organisations: the list walks {@code (org_id, created_at desc, id desc)} (or the filter's own index) and stops at
 * the limit; GET by id is one primary-key lookup, and so is reading the page's documents. The plans are written to
 * target/query-plans.txt. The SQL has the shape Hibernate sends, with literals for the parameters.
 */
@QuarkusTest
class QueryPlanTest {

    private static final int ORGANISATIONS = 20;
    private static final int PER_ORGANISATION = 2000;
    private static final String COLUMNS = "select org_id, id, assistant_id, carrier_duration_seconds, cost, created_at,"
            + " customer_id, details, dial_attempts, dialled_at, next_dial_at, ended_at, ended_reason, finalised, last_carrier_sequence, max_duration_seconds, name,"
            + " phone_call_provider, phone_call_provider_id, phone_call_transport, phone_number_id,"
            + " runtime_ended, squad_id, started_at, status, type, updated_at from call.calls";
    private static final String PREFIX = "plan-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    private static boolean filled;
    private static final StringBuilder REPORT = new StringBuilder();

    @Inject
    AgroalDataSource dataSource;

    private final String org = PREFIX + 7;
    private final StringBuilder report = new StringBuilder();

    @BeforeEach
    void fill() throws SQLException {
        synchronized (QueryPlanTest.class) {
            if (filled) {
                return;
            }
            try (Connection connection = dataSource.getConnection(); Statement sql = connection.createStatement()) {
                sql.execute("""
                        insert into call.calls (org_id, id, created_at, updated_at, type, status, ended_reason,
                                                assistant_id, phone_number_id, max_duration_seconds, details, finalised)
                        select '%1$s' || (n %% %2$d), gen_random_uuid(),
                               timestamptz '2024-01-01' + n * interval '1 second', timestamptz '2024-01-01' + n * interval '1 second',
                               'webCall', case when n %% 100 = 0 then 'queued' else 'ended' end,
                               case when n %% 100 = 0 then null else 'customer-ended-call' end,
                               'assistant-' || (n %% 50), 'number-' || (n %% 30), 1800, '{"customer":{"number":"+14155550123"}}'::jsonb,
                               n %% 100 <> 0
                        from generate_series(1, %3$d) n
                        """.formatted(PREFIX, ORGANISATIONS, ORGANISATIONS * PER_ORGANISATION));
                sql.execute("insert into call.call_documents (org_id, call_id, configuration)"
                        + " select org_id, id, '{\"assistant\":{\"name\":\"a\"}}'::jsonb from call.calls where org_id like '" + PREFIX + "%'");
                sql.execute("analyze call.calls");
                sql.execute("analyze call.call_documents");
            }
            filled = true;
        }
    }

    @Test
    void listsWalkTheirIndexAndStopAtTheLimit() throws Exception {
        String order = " order by created_at desc, id desc offset 0 rows fetch first 100 rows only";
        String plan = explain("GET /call?limit=100", COLUMNS + " where org_id = '" + org + "'" + order);
        assertUses(plan, "calls_list");
        assertTrue(plan.startsWith("Limit"), plan);
        plan = explain("GET /call?createdAtGt&createdAtLe", COLUMNS + " where org_id = '" + org + "'"
                + " and created_at > '2024-01-01T01:00:00Z' and created_at <= '2024-01-01T04:00:00Z'" + order);
        assertUses(plan, "calls_list");
        plan = explain("GET /call?assistantId", COLUMNS + " where org_id = '" + org + "' and assistant_id = 'assistant-7'" + order);
        assertUses(plan, "calls_by_assistant");
        plan = explain("GET /call?phoneNumberId", COLUMNS + " where org_id = '" + org + "' and phone_number_id = 'number-7'" + order);
        assertUses(plan, "calls_by_phone_number");
        plan = explain("GET /call?id", COLUMNS + " where org_id = '" + org + "' and id = '" + UUID.randomUUID() + "'" + order);
        assertIndexOnly(plan);
        write();
    }

    @Test
    void readsAreKeyLookups() throws Exception {
        String id = UUID.randomUUID().toString();
        assertUses(explain("GET /call/{id}", COLUMNS + " where (org_id, id) in (('" + org + "', '" + id + "'))"), "calls_pkey");
        assertUses(explain("the page's documents (one query per list)",
                "select call_id, configuration::text, messages::text from call.call_documents where org_id = '" + org
                        + "' and call_id in ('" + id + "', '" + UUID.randomUUID() + "')"), "call_documents_pkey");
        // calls_live or calls_unfinished: both hold only calls that are not ended.
        assertIndexOnly(explain("live calls of an organisation (the limit)",
                "select count(*) from call.calls where org_id = '" + org + "' and status <> 'ended'"));
        assertIndexOnly(explain("live calls of an organisation, counted up to its limit (as LiveCallLimit asks)",
                "select count(*) from (select 1 from call.calls where org_id = '" + org + "' and status <> 'ended'"
                        + " limit 10) live"));
        // Only calls waiting for a dial attempt are in calls_dial_due: the retry run never walks the others.
        assertUses(explain("dial attempts due (DialRetries, every replica)",
                "select org_id, id from call.calls where next_dial_at <= now() and status = 'queued'"
                        + " order by next_dial_at limit 20 for update skip locked"), "calls_dial_due");
        assertUses(explain("carrier call id (events, retried inbound webhooks)",
                "select id from call.calls where org_id = '" + org + "' and phone_call_provider = 'twilio'"
                        + " and phone_call_provider_id = 'CA1'"), "calls_by_carrier_call");
        write();
    }

    private String explain(String title, String query) throws SQLException {
        StringBuilder plan = new StringBuilder();
        try (Connection connection = dataSource.getConnection(); Statement sql = connection.createStatement();
                ResultSet rows = sql.executeQuery("explain (costs off) " + query)) {
            while (rows.next()) {
                plan.append(rows.getString(1)).append('\n');
            }
        }
        report.append("-- ").append(title).append('\n').append(query.replace(PREFIX, "org-")).append('\n')
                .append(plan.toString().replace(PREFIX, "org-")).append('\n');
        return plan.toString();
    }

    private static void assertUses(String plan, String index) {
        assertTrue(plan.contains("Index Scan using " + index) || plan.contains("Index Only Scan using " + index)
                || plan.contains("Bitmap Index Scan on " + index), "expected " + index + " in\n" + plan);
        assertIndexOnly(plan);
    }

    private static void assertIndexOnly(String plan) {
        assertFalse(plan.contains("Seq Scan"), plan);
        assertTrue(plan.contains("Index"), plan);
    }

    private void write() throws IOException {
        System.out.print(report);
        synchronized (REPORT) {
            REPORT.append(report);
            Path target = Path.of("target", "query-plans.txt");
            Files.createDirectories(target.getParent());
            Files.writeString(target, REPORT.toString());
        }
    }
}
