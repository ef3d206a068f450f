package dev.voiceplane.assistant.repository;

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
 * The queries of this service use the indexes made for them, on tables with thousands of rows in many
 * organisations: lists walk {@code (org_id, created_at desc, id desc)} and stop at the limit, GET by id is one
 * primary-key lookup, membership is an index lookup. The plans are written to target/query-plans.txt (they are
 * quoted in docs/assistants-and-squads.md). The SQL has the shape Hibernate sends (seen with
 * quarkus.hibernate-orm.log.sql=true), with literals for the parameters.
 */
@QuarkusTest
class QueryPlanTest {

    private static final int ORGANISATIONS = 20;
    /** What Hibernate selects for an entity of this service. */
    private static final String COLUMNS = "select id, org_id, created_at, document, updated_at from ";
    private static final int PER_ORGANISATION = 1000;

    @Inject
    AgroalDataSource dataSource;

    /** Organisations of the rows this test adds (once per test JVM); none of them has an API key. */
    private static final String PREFIX = "plan-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    private static boolean filled;

    private final String org = PREFIX + 7;
    /** Every plan of this run, written out whole after each test. */
    private static final StringBuilder REPORT = new StringBuilder();
    private final StringBuilder report = new StringBuilder();

    @BeforeEach
    void fillTables() throws SQLException {
        synchronized (QueryPlanTest.class) {
            if (!filled) {
                fill();
                filled = true;
            }
        }
    }

    private void fill() throws SQLException {
        String prefix = PREFIX;
        try (Connection connection = dataSource.getConnection(); Statement sql = connection.createStatement()) {
            sql.execute("""
                    insert into assistant.assistants (org_id, id, document, created_at, updated_at)
                    select '%1$s' || (n %% %2$d), gen_random_uuid(), jsonb_build_object('name', 'assistant ' || n),
                           timestamptz '2024-01-01' + n * interval '1 second', timestamptz '2024-01-01' + n * interval '1 second'
                    from generate_series(1, %3$d) n
                    """.formatted(prefix, ORGANISATIONS, ORGANISATIONS * PER_ORGANISATION));
            sql.execute("""
                    insert into assistant.squads (org_id, id, document, created_at, updated_at)
                    select '%1$s' || (n %% %2$d), gen_random_uuid(), '{"members":[]}'::jsonb,
                           timestamptz '2024-01-01' + n * interval '1 second', timestamptz '2024-01-01' + n * interval '1 second'
                    from generate_series(1, %3$d) n
                    """.formatted(prefix, ORGANISATIONS, ORGANISATIONS * PER_ORGANISATION));
            // Every squad names three assistants of its organisation.
            for (String pick : new String[] {"s.r", "s.r % " + PER_ORGANISATION + " + 1", "(s.r * 7) % " + PER_ORGANISATION + " + 1"}) {
                sql.execute("""
                        insert into assistant.squad_member_assistants (org_id, squad_id, assistant_id)
                        select s.org_id, s.id, a.id
                        from (select org_id, id, row_number() over (partition by org_id order by id) r
                              from assistant.squads where org_id like '%1$s%%') s
                        join (select org_id, id, row_number() over (partition by org_id order by id) r
                              from assistant.assistants where org_id like '%1$s%%') a
                          on a.org_id = s.org_id and a.r = %2$s
                        on conflict do nothing
                        """.formatted(prefix, pick));
            }
            sql.execute("analyze assistant.assistants");
            sql.execute("analyze assistant.squads");
            sql.execute("analyze assistant.squad_member_assistants");
        }
    }

    @Test
    void listsWalkTheListIndexAndStopAtTheLimit() throws Exception {
        for (String table : new String[] {"assistants", "squads"}) {
            String plan = explain("list " + table + " (GET /" + table.substring(0, table.length() - 1) + "?limit=100)",
                    COLUMNS + "assistant." + table + " where org_id = '" + org + "'"
                            + " order by created_at desc, id desc offset 0 rows fetch first 100 rows only");
            assertUses(plan, table + "_list");
            assertTrue(plan.startsWith("Limit"), plan);
            plan = explain("list " + table + " with createdAtGt and createdAtLe",
                    COLUMNS + "assistant." + table + " where org_id = '" + org + "'"
                            + " and created_at > '2024-01-01T01:00:00Z' and created_at <= '2024-01-01T04:00:00Z'"
                            + " order by created_at desc, id desc offset 0 rows fetch first 100 rows only");
            assertUses(plan, table + "_list");
            plan = explain("list " + table + " with updatedAtGe (recent changes)",
                    COLUMNS + "assistant." + table + " where org_id = '" + org + "'"
                            + " and updated_at >= '2024-01-01T05:30:00Z'"
                            + " order by created_at desc, id desc offset 0 rows fetch first 100 rows only");
            assertIndexOnly(plan);
            plan = explain("list " + table + " with updatedAtLt (most rows match)",
                    COLUMNS + "assistant." + table + " where org_id = '" + org + "'"
                            + " and updated_at < '2024-01-01T05:30:00Z'"
                            + " order by created_at desc, id desc offset 0 rows fetch first 100 rows only");
            assertIndexOnly(plan);
        }
        write();
    }

    @Test
    void readsByIdAndMembershipAreIndexLookups() throws Exception {
        String assistant = firstId("assistants");
        String plan = explain("GET /assistant/{id}",
                COLUMNS + "assistant.assistants where (id, org_id) in (('" + assistant + "', '" + org + "'))");
        assertUses(plan, "assistants_pkey");
        plan = explain("GET /squad/{id}",
                COLUMNS + "assistant.squads where (id, org_id) in (('" + firstId("squads") + "', '" + org + "'))");
        assertUses(plan, "squads_pkey");
        plan = explain("members' assistantIds checked in one query (POST/PATCH /squad, POST /internal/assistant/lookup)",
                "select id from assistant.assistants where org_id = '" + org + "' and id in ('" + assistant + "', '"
                        + UUID.randomUUID() + "', '" + UUID.randomUUID() + "') for key share");
        assertUses(plan, "assistants_pkey");
        plan = explain("squads naming an assistant (DELETE /assistant/{id})",
                "select squad_id, count(*) over () from assistant.squad_member_assistants"
                        + " where org_id = '" + org + "' and assistant_id = '" + assistant + "' order by squad_id limit 20");
        assertUses(plan, "squad_member_assistants_by_assistant");
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

    private String firstId(String table) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement sql = connection.createStatement();
                ResultSet rows = sql.executeQuery("select id from assistant." + table + " where org_id = '" + org
                        + "' order by id limit 1")) {
            rows.next();
            return rows.getString(1);
        }
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
