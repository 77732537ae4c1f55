package io.github.gofluss.bench;

import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Java client's side of bench/benchpeers: one workload per process.
 *
 * <p>Usage: {@code Bench MODE BOOTSTRAP DB TABLE ROWS CONCURRENCY SECONDS}.
 * The table exists already (filled for lookup and scan-rows). Row i is
 * (i, "name-" + i, i * 0.5), as in every peer. Modes: append and upsert
 * (one writer call per row, timed until flush returns), lookup
 * (CONCURRENCY threads calling lookup().get() for SECONDS) and scan-rows
 * (a LogScanner poll loop over every bucket from offset 0 until ROWS rows
 * arrived). Prints one JSON line: ops, seconds, p50_ms/p99_ms (lookups) and
 * vmhwm_kib, the peak RSS of the process.
 */
public final class Bench {
    private Bench() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            System.err.println("usage: Bench MODE BOOTSTRAP DB TABLE ROWS CONCURRENCY SECONDS");
            System.exit(2);
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        System.setOut(System.err); // only the result line goes to stdout
        String mode = args[0];
        int rows = Integer.parseInt(args[4]);
        int conc = Integer.parseInt(args[5]);
        double seconds = Double.parseDouble(args[6]);
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", args[1]);
        // A lookup otherwise waits up to 100 ms for its batch to fill,
        // which caps one caller at 10 lookups/s.
        conf.setString("client.lookup.batch-timeout", "1 ms");
        String res;
        try (Connection conn = ConnectionFactory.createConnection(conf);
                Table table = conn.getTable(TablePath.of(args[2], args[3]))) {
            switch (mode) {
                case "append": {
                    AppendWriter w = table.newAppend().createWriter();
                    res = timeWrites(rows, w::append, w::flush);
                    break;
                }
                case "upsert": {
                    UpsertWriter w = table.newUpsert().createWriter();
                    res = timeWrites(rows, w::upsert, w::flush);
                    break;
                }
                case "lookup":
                    res = lookup(table, rows, conc, seconds);
                    break;
                case "scan-rows":
                    res = scanRows(table, rows);
                    break;
                default:
                    throw new IllegalArgumentException("the Java client has no " + mode + " workload here");
            }
        }
        out.println(res.substring(0, res.length() - 1) + ",\"vmhwm_kib\":" + vmHWM() + "}");
        System.exit(0); // client threads may linger
    }

    static GenericRow row(long i) {
        return GenericRow.of(i, BinaryString.fromString("name-" + i), i * 0.5);
    }

    static String result(long ops, long startNanos) {
        return String.format("{\"ops\":%d,\"seconds\":%.6f}", ops, (System.nanoTime() - startNanos) / 1e9);
    }

    /** One writer call for one row. */
    interface RowWrite {
        CompletableFuture<?> write(GenericRow row);
    }

    /**
     * Writes rows 0..rows-1 and flushes, timed until every row is
     * acknowledged; fails with the first write's failure.
     */
    static String timeWrites(int rows, RowWrite w, Runnable flush) {
        AtomicReference<Throwable> failed = new AtomicReference<>();
        long start = System.nanoTime();
        for (long i = 0; i < rows; i++) {
            w.write(row(i)).whenComplete((r, e) -> {
                if (e != null) {
                    failed.compareAndSet(null, e);
                }
            });
        }
        flush.run();
        String res = result(rows, start);
        if (failed.get() != null) {
            throw new RuntimeException(failed.get());
        }
        return res;
    }

    static String lookup(Table table, int rows, int conc, double seconds) throws Exception {
        AtomicLong next = new AtomicLong();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<List<Long>> lats = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        long stop = start + (long) (seconds * 1e9);
        for (int g = 0; g < conc; g++) {
            List<Long> lat = new ArrayList<>();
            lats.add(lat);
            // A Lookuper is not thread-safe (it reuses its key encoder):
            // one per thread, all sharing the connection's lookup batching.
            Lookuper lk = table.newLookup().createLookuper();
            Thread t = new Thread(() -> {
                try {
                    while (failed.get() == null && System.nanoTime() < stop) {
                        long key = next.getAndIncrement() * 7919 % rows;
                        long t0 = System.nanoTime();
                        InternalRow r = lk.lookup(GenericRow.of(key)).get().getSingletonRow();
                        if (r == null || r.getLong(0) != key) {
                            throw new IllegalStateException("lookup " + key + " found " + r);
                        }
                        lat.add(System.nanoTime() - t0);
                    }
                } catch (Throwable e) {
                    failed.compareAndSet(null, e);
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        long el = System.nanoTime() - start;
        if (failed.get() != null) {
            throw new RuntimeException(failed.get());
        }
        List<Long> all = new ArrayList<>();
        lats.forEach(all::addAll);

        Collections.sort(all);
        return String.format("{\"ops\":%d,\"seconds\":%.6f,\"p50_ms\":%.4f,\"p99_ms\":%.4f}",
                all.size(), el / 1e9, pct(all, 0.5), pct(all, 0.99));
    }

    static double pct(List<Long> sorted, double q) {
        if (sorted.isEmpty()) {
            return 0;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) (q * sorted.size()))) / 1e6;
    }

    static String scanRows(Table table, int rows) throws Exception {
        long start = System.nanoTime();
        long got = 0;
        long sum = 0; // reads a field of every row, as a consumer would
        try (LogScanner scanner = table.newScan().createLogScanner()) {
            int buckets = table.getTableInfo().getNumBuckets();
            for (int b = 0; b < buckets; b++) {
                scanner.subscribe(b, 0L);
            }
            long deadline = start + Duration.ofMinutes(10).toNanos();
            while (got < rows) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("scan stalled at " + got + " rows");
                }
                ScanRecords polled = scanner.poll(Duration.ofMillis(500));
                for (ScanRecord r : polled) {
                    sum += r.getRow().getLong(0);
                    got++;
                }
            }
        }
        if (got != rows || sum < 0) {
            throw new IllegalStateException("scanned " + got + " rows, want " + rows);
        }
        return result(got, start);
    }

    static long vmHWM() throws Exception {
        for (String l : Files.readAllLines(Paths.get("/proc/self/status"))) {
            if (l.startsWith("VmHWM:")) {
                return Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }
}
