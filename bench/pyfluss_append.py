"""Peer figures for BenchmarkAppendRows / BenchmarkUpsertRows: pyfluss
appending (or upserting) N rows of the 10-column row of
the driver's benchmarks to a fresh 1- or 4-bucket table.

    python bench/pyfluss_append.py BOOTSTRAP [--rows N] [--buckets B] [--mode M]

M is arrow (write_arrow_batch of 8192-row batches, ARROW log table),
rows (AppendWriter.append per row) or upsert (UpsertWriter.upsert per row,
PK table). The data is generated before the clock starts; the clock runs
from the first write to the return of flush() (every row acknowledged).
Prints one JSON object with rows/s.
"""

import argparse
import asyncio
import datetime
import json
import os
import random
import string
import sys
import time

import fluss
import pyarrow as pa

SCHEMA = pa.schema([
    ("id", pa.int64()), ("user_id", pa.int64()), ("ts", pa.timestamp("ms")),
    ("d1", pa.float64()), ("d2", pa.float64()), ("n", pa.int32()), ("flag", pa.bool_()),
    ("s8", pa.string()), ("s16", pa.string()), ("s48", pa.string()),
])


def gen(n):
    rnd = random.Random(1)
    letters = string.ascii_letters + string.digits
    s = lambda k: "".join(rnd.choices(letters, k=k))
    pool = 1 << 16
    cols = {
        "user_id": [rnd.randrange(1 << 20) for _ in range(pool)],
        "ts": [datetime.datetime(2026, 1, 1) + datetime.timedelta(milliseconds=i) for i in range(pool)],
        "d1": [rnd.random() * 1000 for _ in range(pool)],
        "d2": [rnd.gauss(0, 1) for _ in range(pool)],
        "n": [rnd.randrange(1 << 16) for _ in range(pool)],
        "flag": [rnd.random() < 0.5 for _ in range(pool)],
        "s8": [s(8) for _ in range(pool)], "s16": [s(16) for _ in range(pool)], "s48": [s(48) for _ in range(pool)],
    }
    rows = []
    for i in range(n):
        j = i % pool
        rows.append([i] + [cols[c][j] for c in SCHEMA.names[1:]])
    return rows


async def maybe(x):
    return await x if hasattr(x, "__await__") else x


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bootstrap")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--buckets", type=int, default=1)
    ap.add_argument("--mode", choices=["arrow", "rows", "upsert"], default="arrow")
    a = ap.parse_args()
    rows = gen(a.rows)
    batches = []
    if a.mode == "arrow":
        for k in range(0, len(rows), 8192):
            chunk = rows[k:k + 8192]
            arrays = [pa.array([r[j] for r in chunk], type=f.type) for j, f in enumerate(SCHEMA)]
            batches.append(pa.RecordBatch.from_arrays(arrays, schema=SCHEMA))
    conn = await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": a.bootstrap}))
    admin = conn.get_admin()
    db = "bench_py_%d" % (time.time_ns() % 10**9)
    await admin.create_database(db, ignore_if_exists=True)
    path = fluss.TablePath(db, "t")
    pk = ["id"] if a.mode == "upsert" else None
    desc = fluss.TableDescriptor(fluss.Schema(SCHEMA, primary_keys=pk), bucket_count=a.buckets)
    await admin.create_table(path, desc, ignore_if_exists=False)
    tbl = await conn.get_table(path)
    try:
        if a.mode == "upsert":
            w = await maybe(tbl.new_upsert().create_writer())
            w.upsert(rows[0])
            await w.flush()
            start = time.perf_counter()
            for r in rows:
                w.upsert(r)
        else:
            w = await maybe(tbl.new_append().create_writer())
            w.append(rows[0])
            await w.flush()
            start = time.perf_counter()
            if a.mode == "arrow":
                for b in batches:
                    w.write_arrow_batch(b)
            else:
                for r in rows:
                    w.append(r)
        await w.flush()
        el = time.perf_counter() - start
        print(json.dumps({"mode": a.mode, "buckets": a.buckets, "rows": a.rows,
                          "seconds": round(el, 3), "rows_per_s": round(a.rows / el)}))
    finally:
        await admin.drop_database(db, ignore_if_not_exists=True, cascade=True)
        await conn.close()


if __name__ == "__main__":
    asyncio.run(main())
    sys.stdout.flush()  # os._exit skips the flush of a piped stdout
    os._exit(0)
