package dev.voiceplane.kit.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Runs the same request from several threads released at the same moment, for tests of concurrent writes. */
public final class Race {

    private Race() {
    }

    /** The status codes the parties got, in no particular order. */
    public static List<Integer> statuses(int parties, Callable<Integer> request) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(parties);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < parties; i++) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return request.call();
                }));
            }
            start.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> answer : answers) {
                statuses.add(answer.get());
            }
            return statuses;
        } finally {
            pool.shutdownNow();
        }
    }
}
