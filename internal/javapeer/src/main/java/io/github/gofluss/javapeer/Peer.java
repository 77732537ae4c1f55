package io.github.gofluss.javapeer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.RowType;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One long-lived process that drives the Fluss Java client for the Go tests.
 *
 * <p>Usage: {@code Peer BOOTSTRAP}. Every line on stdin is one JSON command;
 * every command is answered by exactly one JSON line on stdout, either the
 * result or {@code {"error": message}}. One process serves many commands, so
 * a test group pays for one JVM start.
 *
 * <pre>
 * {"cmd":"append", "db":D, "table":T, "rows":[row...]}  -> {"written":n}
 * {"cmd":"upsert", "db":D, "table":T, "rows":[row...]}  -> {"written":n}
 * {"cmd":"delete", "db":D, "table":T, "rows":[row...]}  -> {"written":n}
 * {"cmd":"lookup", "db":D, "table":T, "keys":[key...]}  -> {"rows":[row|null...]}
 * {"cmd":"scan",   "db":D, "table":T}                   -> {"rows":[record...], "end_offsets":{...}}
 * </pre>
 *
 * <p>Rows are lists with one tagged value per column (see {@link Values});
 * keys hold the primary-key columns in primary-key order. Writes return
 * after flush, i.e. after the server acknowledged every row. scan reads
 * every bucket (and partition) from the start up to the end offsets seen
 * when it starts, and prints {"rows":[record...], "end_offsets":
 * {"partition/bucket": offset}}; a record is {"partition":name|null,
 * "bucket":b, "offset":o, "change":"+A"|"+I"|"-U"|"+U"|"-D", "row":row}.
 */
public final class Peer {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Connection conn;

    private Peer(String bootstrap) {
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", bootstrap);
        this.conn = ConnectionFactory.createConnection(conf);
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: Peer BOOTSTRAP");
            System.exit(2);
        }
        // Answers go to the real stdout only; anything a library prints
        // there would corrupt the protocol, so stdout becomes stderr.
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        Peer peer = new Peer(args[0]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode answer;
            try {
                answer = peer.handle(JSON.readTree(line));
            } catch (Throwable e) {
                ObjectNode err = JSON.createObjectNode();
                err.put("error", describe(e));
                answer = err;
            }
            out.println(JSON.writeValueAsString(answer));
        }
        peer.conn.close();
    }

    private static String describe(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (b.length() > 0) {
                b.append(": ");
            }
            b.append(t.getClass().getName()).append(": ").append(t.getMessage());
            if (t.getCause() == t) {
                break;
            }
        }
        return b.toString();
    }

    private JsonNode handle(JsonNode cmd) throws Exception {
        TablePath path = TablePath.of(cmd.get("db").asText(), cmd.get("table").asText());
        try (Table table = conn.getTable(path)) {
            RowType rowType = table.getTableInfo().getRowType();
            String name = cmd.get("cmd").asText();
            switch (name) {
                case "append":
                case "upsert":
                case "delete":
                    return write(table, rowType, name, cmd.get("rows"));
                case "lookup":
                    return lookup(table, rowType, cmd.get("keys"));
                case "scan":
                    return scan(table, rowType);
                default:
                    throw new IllegalArgumentException("unknown command " + name);
            }
        }
    }

    private JsonNode write(Table table, RowType rowType, String how, JsonNode rows) throws Exception {
        List<CompletableFuture<?>> acks = new ArrayList<>();
        if (how.equals("append")) {
            AppendWriter w = table.newAppend().createWriter();
            for (JsonNode row : rows) {
                acks.add(w.append(Values.toRow(rowType, row)));
            }
            w.flush();
        } else {
            UpsertWriter w = table.newUpsert().createWriter();
            for (JsonNode row : rows) {
                InternalRow r = Values.toRow(rowType, row);
                acks.add(how.equals("upsert") ? w.upsert(r) : w.delete(r));
            }
            w.flush();
        }
        for (CompletableFuture<?> ack : acks) {
            ack.get();
        }
        ObjectNode res = JSON.createObjectNode();
        res.put("written", acks.size());
        return res;
    }

    private JsonNode lookup(Table table, RowType rowType, JsonNode keys) throws Exception {
        List<String> pk = table.getTableInfo().getPrimaryKeys();
        RowType keyType = rowType.project(pk);
        Lookuper lookuper = table.newLookup().createLookuper();
        List<CompletableFuture<org.apache.fluss.client.lookup.LookupResult>> results = new ArrayList<>();
        for (JsonNode key : keys) {
            results.add(lookuper.lookup(Values.toRow(keyType, key)));
        }
        ObjectNode res = JSON.createObjectNode();
        ArrayNode rows = res.putArray("rows");
        for (CompletableFuture<org.apache.fluss.client.lookup.LookupResult> r : results) {
            InternalRow row = r.get().getSingletonRow();
            rows.add(row == null ? JSON.nullNode() : Values.fromRow(rowType, row));
        }
        return res;
    }

    private JsonNode scan(Table table, RowType rowType) throws Exception {
        TableInfo info = table.getTableInfo();
        TablePath path = info.getTablePath();
        int buckets = info.getNumBuckets();
        List<Integer> all = new ArrayList<>();
        for (int b = 0; b < buckets; b++) {
            all.add(b);
        }
        // Where each bucket ends now, keyed like TableBucket.
        Map<TableBucket, Long> end = new HashMap<>();
        Map<Long, String> partitionNames = new HashMap<>();
        long tableId = info.getTableId();
        if (info.isPartitioned()) {
            for (PartitionInfo p : conn.getAdmin().listPartitionInfos(path).get()) {
                partitionNames.put(p.getPartitionId(), p.getPartitionName());
                Map<Integer, Long> offs = conn.getAdmin()
                        .listOffsets(path, p.getPartitionName(), all, new OffsetSpec.LatestSpec()).all().get();
                for (Map.Entry<Integer, Long> e : offs.entrySet()) {
                    end.put(new TableBucket(tableId, p.getPartitionId(), e.getKey()), e.getValue());
                }
            }
        } else {
            Map<Integer, Long> offs = conn.getAdmin().listOffsets(path, all, new OffsetSpec.LatestSpec()).all().get();
            for (Map.Entry<Integer, Long> e : offs.entrySet()) {
                end.put(new TableBucket(tableId, e.getKey()), e.getValue());
            }
        }
        List<ObjectNode> records = new ArrayList<>();
        try (LogScanner scanner = table.newScan().createLogScanner()) {
            Map<TableBucket, Long> pending = new HashMap<>();
            for (Map.Entry<TableBucket, Long> e : end.entrySet()) {
                if (e.getValue() <= 0) {
                    continue;
                }
                TableBucket tb = e.getKey();
                if (tb.getPartitionId() == null) {
                    scanner.subscribe(tb.getBucket(), 0L);
                } else {
                    scanner.subscribe(tb.getPartitionId(), tb.getBucket(), 0L);
                }
                pending.put(tb, e.getValue());
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (!pending.isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("scan did not reach the end offsets " + pending);
                }
                ScanRecords polled = scanner.poll(Duration.ofMillis(500));
                for (TableBucket tb : polled.buckets()) {
                    Long stop = pending.get(tb);
                    for (ScanRecord r : polled.records(tb)) {
                        if (stop == null || r.logOffset() >= stop) {
                            continue;
                        }
                        ObjectNode rec = JSON.createObjectNode();
                        if (tb.getPartitionId() == null) {
                            rec.putNull("partition");
                        } else {
                            rec.put("partition", partitionNames.get(tb.getPartitionId()));
                        }
                        rec.put("bucket", tb.getBucket());
                        rec.put("offset", r.logOffset());
                        rec.put("change", r.getChangeType().shortString());
                        rec.set("row", Values.fromRow(rowType, r.getRow()));
                        records.add(rec);
                        if (r.logOffset() + 1 >= stop) {
                            pending.remove(tb);
                        }
                    }
                }
            }
        }
        ObjectNode res = JSON.createObjectNode();
        ArrayNode out = res.putArray("rows");
        records.forEach(out::add);
        ObjectNode ends = res.putObject("end_offsets");
        for (Map.Entry<TableBucket, Long> e : end.entrySet()) {
            TableBucket tb = e.getKey();
            String part = tb.getPartitionId() == null ? "" : partitionNames.get(tb.getPartitionId());
            ends.put(part + "/" + tb.getBucket(), e.getValue());
        }
        return res;
    }
}
