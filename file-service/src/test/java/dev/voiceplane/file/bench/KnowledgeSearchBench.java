package dev.voiceplane.file.bench;

import static dev.voiceplane.kit.testing.TestClients.internal;

import dev.voiceplane.contracts.file.PassageSearch;
import dev.voiceplane.file.domain.StoredFile;
import dev.voiceplane.file.repository.PassageRepository;
import dev.voiceplane.file.service.FileRecords;
import dev.voiceplane.file.service.KnowledgeSearch;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * How long the knowledge-base search takes (docs/files.md, "Knowledge-base search"): an organisation whose files
 * hold 1,000 and then 10,000 passages of ~650 characters of words drawn from a 2,000-word vocabulary (Zipf-like, as
 * text is), searched with 6-word questions over all its files, topK 3. Prints p50/p95/max of the search alone
 * ({@link KnowledgeSearch}: the SQL in its transaction) and of the internal route over HTTP (what the voice runtime
 * waits for). Not part of the build: {@code -Dvoice.bench=true -Dtest=KnowledgeSearchBench}. Nothing is asserted
 * about time.
 */
@QuarkusTest
@EnabledIfSystemProperty(named = "voice.bench", matches = "true")
class KnowledgeSearchBench {

    private static final int PASSAGES_PER_FILE = 20;
    private static final int SEARCHES = 300;

    @Inject
    FileRecords records;

    @Inject
    KnowledgeSearch search;

    @Inject
    PassageRepository passages;

    private final Random random = new Random(42);
    private final String[] vocabulary = vocabulary();

    @Test
    void searchLatencyAtOneThousandAndTenThousandPassages() {
        for (int total : new int[] {1_000, 10_000}) {
            String org = "org-bench-" + total;
            List<String> fileIds = new ArrayList<>();
            long loadStarted = System.nanoTime();
            for (int f = 0; f < total / PASSAGES_PER_FILE; f++) {
                fileIds.add(file(org).toString());
            }
            double loadSeconds = (System.nanoTime() - loadStarted) / 1e9;
            // Warm-up: plans, caches, JIT.
            for (int i = 0; i < 50; i++) {
                search.search(org, new PassageSearch(fileIds, question(), 3));
            }
            long[] sql = new long[SEARCHES];
            int found = 0;
            for (int i = 0; i < SEARCHES; i++) {
                long started = System.nanoTime();
                found += search.search(org, new PassageSearch(fileIds, question(), 3)).passages().size();
                sql[i] = System.nanoTime() - started;
            }
            long[] http = new long[SEARCHES];
            for (int i = 0; i < SEARCHES; i++) {
                Map<String, Object> body = Map.of("fileIds", fileIds, "query", question(), "topK", 3);
                long started = System.nanoTime();
                internal(org).body(body).when().post("/internal/file/search").then().statusCode(200);
                http[i] = System.nanoTime() - started;
            }
            System.out.printf("knowledge search, %d passages in %d files (loaded in %.1f s): search %s; route over"
                    + " HTTP %s; %.1f passages found per search%n", total, fileIds.size(), loadSeconds,
                    percentiles(sql), percentiles(http), (double) found / SEARCHES);
        }
    }

    private java.util.UUID file(String org) {
        StringBuilder text = new StringBuilder();
        for (int p = 0; p < PASSAGES_PER_FILE; p++) {
            StringBuilder paragraph = new StringBuilder();
            while (paragraph.length() < 640) {
                paragraph.append(word()).append(random.nextInt(12) == 0 ? ". " : " ");
            }
            text.append(paragraph.toString().trim()).append(".\n\n");
        }
        StoredFile file = new StoredFile();
        file.stampCreated(org, null);
        file.originalName = "bench.txt";
        file.name = "bench.txt";
        file.bytes = text.length();
        file.mimetype = "text/plain";
        file.status = StoredFile.INDEXED;
        file.bucket = "files";
        file.storageKey = org + "/" + file.id;
        records.create(file, text.toString());
        return file.id;
    }

    private String question() {
        StringBuilder question = new StringBuilder("Can you tell me");
        for (int i = 0; i < 6; i++) {
            question.append(' ').append(word());
        }
        return question.append('?').toString();
    }

    /** A word with a Zipf-like frequency: a few common, most rare. */
    private String word() {
        double u = random.nextDouble();
        return vocabulary[(int) Math.min(vocabulary.length - 1, Math.floor(Math.pow(vocabulary.length, u)) - 1)];
    }

    private static String[] vocabulary() {
        Random random = new Random(7);
        String[] words = new String[2000];
        for (int i = 0; i < words.length; i++) {
            StringBuilder word = new StringBuilder();
            int length = 4 + random.nextInt(6);
            for (int c = 0; c < length; c++) {
                word.append((char) ('a' + random.nextInt(26)));
            }
            words[i] = word.toString();
        }
        return words;
    }

    private static String percentiles(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return String.format("p50 %.2f ms, p95 %.2f ms, max %.2f ms", sorted[sorted.length / 2] / 1e6,
                sorted[(int) (sorted.length * 0.95)] / 1e6, sorted[sorted.length - 1] / 1e6);
    }
}
