"""Peer figures for BenchmarkLookup and BenchmarkScan: pyfluss reading the
same shapes on the same cluster.

    python bench/pyfluss_read.py BOOTSTRAP --mode lookup [--rows N] [--lookups L] [--concurrency C]
    python bench/pyfluss_read.py BOOTSTRAP --mode scan [--rows N] [--buckets B]

lookup fills a primary-key table (id BIGINT, v STRING) with N rows, then
times L point lookups of random existing keys with C of them in flight at
once (asyncio tasks sharing one Lookuper). scan fills an ARROW log table
with N rows of the same shape in B buckets, then times reading all of them
back as Arrow batches from the earliest offsets. Prints one JSON object.
"""

import argparse
import asyncio
import json
import os
import random
import sys
import time

import fluss
import pyarrow as pa

SCHEMA = pa.schema([("id", pa.int64()), ("v", pa.string())])


def batches(n, size=8192):
    for k in range(0, n, size):
        ids = list(range(k, min(n, k + size)))
        yield pa.RecordBatch.from_arrays(
            [pa.array(ids, pa.int64()), pa.array(["value-%d" % i for i in ids])], schema=SCHEMA)


async def fill_pk(tbl, n):
    w = tbl.new_upsert().create_writer()
    for b in batches(n):
        for i, v in zip(b.column(0).to_pylist(), b.column(1).to_pylist()):
            w.upsert([i, v])
    await w.flush()


async def lookups(tbl, n, total, conc):
    lk = tbl.new_lookup().create_lookuper()
    rnd = random.Random(1)
    keys = [rnd.randrange(n) for _ in range(total)]
    it = iter(keys)

    async def worker():
        for k in it:
            row = await lk.lookup([k])
            assert row is not None

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(conc)))
    return time.perf_counter() - start


async def scan(tbl, n):
    s = await tbl.new_scan().create_record_batch_log_scanner()
    info = tbl.get_table_info()
    s.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(info.num_buckets)})
    got = 0
    start = time.perf_counter()
    while got < n:
        t = await s.poll_arrow(1000)
        got += t.num_rows
    return time.perf_counter() - start


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bootstrap")
    ap.add_argument("--mode", choices=["lookup", "scan"], required=True)
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--lookups", type=int, default=100_000)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--buckets", type=int, default=4)
    a = ap.parse_args()
    conn = await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": a.bootstrap}))
    admin = conn.get_admin()
    db = "bench_pyr_%d" % (time.time_ns() % 10**9)
    await admin.create_database(db, ignore_if_exists=True)
    path = fluss.TablePath(db, "t")
    pk = ["id"] if a.mode == "lookup" else None
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(SCHEMA, primary_keys=pk), bucket_count=a.buckets), ignore_if_exists=False)
    tbl = await conn.get_table(path)
    try:
        if a.mode == "lookup":
            await fill_pk(tbl, a.rows)
            el = await lookups(tbl, a.rows, a.lookups, a.concurrency)
            out = {"mode": "lookup", "concurrency": a.concurrency, "lookups": a.lookups,
                   "seconds": round(el, 3), "lookups_per_s": round(a.lookups / el)}
        else:
            w = tbl.new_append().create_writer()
            for b in batches(a.rows):
                w.write_arrow_batch(b)
            await w.flush()
            el = await scan(tbl, a.rows)
            out = {"mode": "scan", "buckets": a.buckets, "rows": a.rows,
                   "seconds": round(el, 3), "rows_per_s": round(a.rows / el)}
        print(json.dumps(out))
    finally:
        await admin.drop_database(db, ignore_if_not_exists=True, cascade=True)
        await conn.close()


if __name__ == "__main__":
    asyncio.run(main())
    sys.stdout.flush()  # os._exit skips the flush of a piped stdout
    os._exit(0)
