"""The pyfluss side of bench/benchpeers: one workload per process.

    python bench/pyfluss_bench.py MODE BOOTSTRAP DB TABLE ROWS CONCURRENCY SECONDS

The table exists already (benchpeers creates it, and fills it for lookup
and scan-arrow). Row i is (i, "name-<i>", i * 0.5), as in every peer.

  append      write_arrow_batch of 8192-row batches (pyfluss's fastest
              append; the batches are built before the clock starts)
  upsert      UpsertWriter.upsert per row
  lookup      CONCURRENCY asyncio tasks sharing one Lookuper, for SECONDS;
              pyfluss 1.0.0 finds nothing for many keys of a table another
              client wrote (table.kv.format-version 2), so a miss is
              counted (on stderr), not fatal: it still costs a round trip
  scan-arrow  LogScanner.to_arrow of every bucket from the earliest offset
  scan-adbc   not pyfluss: the same table read whole as Arrow by Python's
              ADBC Flight SQL driver (SELECT * and fetch_arrow_table)
              through the project's Flight SQL server, asking for the
              batches undecoded (x-fluss-ipc-compression: zstd); BOOTSTRAP
              is then the server's URI (grpc://host:port)
  scan-adbc-decoded  scan-adbc without asking: the server decodes
  scan-flight  scan-adbc-decoded read by pyarrow's own Flight client (Arrow
              C++) instead of ADBC's driver (Go, arrow-go), which tells
              the server's share of the ADBC time from the driver's
  scan-adbc-memory  scan-adbc-decoded from benchpeers' in-memory Flight SQL
              server, which holds the table's records already decoded:
              the time of the client alone
  query-duckdb  what a Fluss user does for an analytic query today: read
              each of TABLE's tables (comma-separated) whole with pyfluss
              (to_arrow of a log table; for a primary-key table, which
              pyfluss reads in batches only by a limit scan per bucket,
              those scans' to_arrow), then run $BENCHPEERS_SQL on them in
              DuckDB; ROWS is the first table's row count
  query-adbc  not pyfluss: $BENCHPEERS_SQL run by our Flight SQL server
              with the embedded engine (BOOTSTRAP is its URI), the answer
              read by Python's ADBC driver

Writes are timed from the first write to the return of flush() (every row
acknowledged). Prints one JSON line: ops, seconds, p50_ms/p99_ms (lookups),
check (queries: a digest of the answer, as workload.Digest in Go makes it)
and vmhwm_kib, the peak RSS of this process.
"""

import asyncio
import json
import os
import sys
import time

import fluss
import pyarrow as pa

SCHEMA = pa.schema([("id", pa.int64()), ("name", pa.string()), ("v", pa.float64())])


def row(i):
    return [i, "name-%d" % i, i * 0.5]


def lookup_key(j, rows):
    return j * 7919 % rows


def vmhwm_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def percentile(lat, q):
    return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else 0


async def append(tbl, rows):
    batches = []
    for k in range(0, rows, 8192):
        ids = list(range(k, min(rows, k + 8192)))
        batches.append(pa.RecordBatch.from_arrays(
            [pa.array(ids, pa.int64()), pa.array(["name-%d" % i for i in ids]),
             pa.array([i * 0.5 for i in ids], pa.float64())], schema=SCHEMA))
    w = tbl.new_append().create_writer()
    start = time.perf_counter()
    for b in batches:
        w.write_arrow_batch(b)
    await w.flush()
    return {"ops": rows, "seconds": time.perf_counter() - start}


async def upsert(tbl, rows):
    w = tbl.new_upsert().create_writer()
    start = time.perf_counter()
    for i in range(rows):
        w.upsert(row(i))
    await w.flush()
    return {"ops": rows, "seconds": time.perf_counter() - start}


async def lookup(tbl, rows, conc, seconds):
    lk = tbl.new_lookup().create_lookuper()
    lat = []
    nxt = [0]
    misses = [0]
    stop = time.perf_counter() + seconds

    async def worker():
        while time.perf_counter() < stop:
            j = nxt[0]
            nxt[0] += 1
            k = lookup_key(j, rows)
            t = time.perf_counter()
            if await lk.lookup([k]) is None:
                misses[0] += 1
            lat.append(time.perf_counter() - t)

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(conc)))
    el = time.perf_counter() - start
    lat.sort()
    if misses[0]:
        print("pyfluss found nothing for %d of %d existing keys" % (misses[0], len(lat)), file=sys.stderr)
    return {"ops": len(lat), "seconds": el, "p50_ms": percentile(lat, 0.5), "p99_ms": percentile(lat, 0.99)}


async def scan_arrow(tbl, rows):
    start = time.perf_counter()
    s = await tbl.new_scan().create_record_batch_log_scanner()
    n = tbl.get_table_info().num_buckets
    s.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(n)})
    t = await s.to_arrow()
    if t.num_rows != rows:
        raise RuntimeError("scanned %d rows, want %d" % (t.num_rows, rows))
    return {"ops": t.num_rows, "seconds": time.perf_counter() - start}


def scan_adbc(uri, db, table, rows, passthrough, in_memory=False):
    # With passthrough, ask for the ZSTD log batches as Fluss stored them:
    # the driver decompresses them itself.
    header = {"adbc.flight.sql.rpc.call_header.x-fluss-ipc-compression": "zstd"} if passthrough else {}
    t, seconds = adbc_read(uri, db, table, "SELECT * FROM %s.%s" % (db, table), header, in_memory)
    if t.num_rows != rows:
        raise RuntimeError("read %d rows through Flight SQL, want %d" % (t.num_rows, rows))
    return {"ops": t.num_rows, "seconds": seconds}


def adbc_read(uri, db, table, sql, header, in_memory=False):
    """Runs sql through the Flight SQL server at uri; returns the answer
    as a pyarrow Table and the seconds from execute to the last batch."""
    import adbc_driver_flightsql.dbapi as flight_sql

    with flight_sql.connect(uri, db_kwargs=header, autocommit=True) as conn, conn.cursor() as cur:
        # Resolve the table first, untimed, as the pyfluss run's get_table
        # does: the clock then covers the scan, not the connection's first
        # call (channel, handshake, session). The in-memory server has no
        # catalog: a query of nothing makes the first call there.
        if in_memory:
            cur.execute("SELECT 0")
            cur.fetch_arrow_table()
        else:
            conn.adbc_get_table_schema(table, db_schema_filter=db)
        start = time.perf_counter()
        cur.execute(sql)
        t = cur.fetch_arrow_table()
        return t, time.perf_counter() - start


def digest(t):
    """The answer's row count and the sum of its integers (integer
    columns, and DuckDB's sums of integers, DECIMAL(38, 0)), as
    workload.Digest writes them."""
    total = 0
    for col in t.columns:
        ty = col.type
        if pa.types.is_integer(ty) or (pa.types.is_decimal(ty) and ty.scale == 0):
            total += sum(int(x) for x in col.to_pylist() if x is not None)
    return "%d rows, integers sum to %d" % (t.num_rows, total)


def query_adbc(uri, db, tables, rows, sql):
    t, seconds = adbc_read(uri, db, tables.split(",")[0], sql, {})
    return {"ops": rows, "seconds": seconds, "check": digest(t)}


async def read_whole(tbl, limit):
    """The whole table as a pyarrow Table, as pyfluss reads it in batches:
    a log table by to_arrow of every bucket from the earliest offset, a
    primary-key table by a limit scan of each bucket."""
    info = tbl.get_table_info()
    n = info.num_buckets
    if not info.has_primary_key():
        s = await tbl.new_scan().create_record_batch_log_scanner()
        s.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(n)})
        return await s.to_arrow()
    scan = tbl.new_scan().limit(limit)
    parts = [await scan.create_bucket_batch_scanner(fluss.TableBucket(info.table_id, b)).to_arrow() for b in range(n)]
    return pa.concat_tables(parts)


async def query_duckdb(conn, db, tables, rows, sql):
    import duckdb

    # Resolved first, untimed, as in the other runs.
    tbls = [(name, await conn.get_table(fluss.TablePath(db, name))) for name in tables.split(",")]
    start = time.perf_counter()
    con = duckdb.connect()
    for name, tbl in tbls:
        # No key table of these runs holds more keys than the log has rows.
        con.register(name, await read_whole(tbl, rows))
    t = con.sql(sql).to_arrow_table()
    seconds = time.perf_counter() - start
    return {"ops": rows, "seconds": seconds, "check": digest(t)}


def scan_flight(uri, db, table, rows):
    import pyarrow.flight as flight

    # pyarrow has no Flight SQL client: the query goes out as the Flight
    # SQL command a client sends, an Any holding a CommandStatementQuery.
    def field(number, data):
        return varint(number << 3 | 2) + varint(len(data)) + data

    query = field(1, ("SELECT * FROM %s.%s" % (db, table)).encode())
    command = field(1, b"type.googleapis.com/arrow.flight.protocol.sql.CommandStatementQuery") + field(2, query)
    client = flight.FlightClient(uri)
    try:
        # Untimed first call, as scan_adbc's: the channel is then up.
        client.list_actions()
        start = time.perf_counter()
        info = client.get_flight_info(flight.FlightDescriptor.for_command(command))
        n = 0
        for ep in info.endpoints:
            n += client.do_get(ep.ticket).read_all().num_rows
        seconds = time.perf_counter() - start
    finally:
        client.close()
    if n != rows:
        raise RuntimeError("read %d rows through Flight, want %d" % (n, rows))
    return {"ops": n, "seconds": seconds}


def varint(n):
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


async def main():
    if len(sys.argv) != 8:
        sys.exit(__doc__)
    mode, bootstrap, db, table = sys.argv[1:5]
    rows, conc, seconds = int(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7])
    if mode in ("scan-adbc", "scan-adbc-decoded", "scan-flight", "scan-adbc-memory", "query-adbc"):
        if mode == "query-adbc":
            out = query_adbc(bootstrap, db, table, rows, os.environ["BENCHPEERS_SQL"])
        elif mode == "scan-flight":
            out = scan_flight(bootstrap, db, table, rows)
        else:
            out = scan_adbc(bootstrap, db, table, rows, mode == "scan-adbc", mode == "scan-adbc-memory")
        out["vmhwm_kib"] = vmhwm_kib()
        print(json.dumps(out))
        return
    conn = await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": bootstrap}))
    try:
        if mode == "query-duckdb":
            out = await query_duckdb(conn, db, table, rows, os.environ["BENCHPEERS_SQL"])
        elif mode in ("append", "upsert", "lookup", "scan-arrow"):
            tbl = await conn.get_table(fluss.TablePath(db, table))
            if mode == "append":
                out = await append(tbl, rows)
            elif mode == "upsert":
                out = await upsert(tbl, rows)
            elif mode == "lookup":
                out = await lookup(tbl, rows, conc, seconds)
            else:
                out = await scan_arrow(tbl, rows)
        else:
            sys.exit("pyfluss has no %s workload here" % mode)
    finally:
        await conn.close()
    out["vmhwm_kib"] = vmhwm_kib()
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main())
    sys.stdout.flush()  # os._exit skips the flush of a piped stdout
    os._exit(0)
