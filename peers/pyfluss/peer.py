"""Drive pyfluss, the independent Python client, for cross-client checks.

The Go test suite runs this script with the venv that `make peers` creates.
Every sub-command prints one JSON document on stdout; a failure prints
{"error": ..., "code": ...} and exits 1, so the Go side can assert on codes.

    peer.py BOOTSTRAP describe DB TABLE
    peer.py BOOTSTRAP create-table DB TABLE < spec.json
    peer.py BOOTSTRAP databases
    peer.py BOOTSTRAP scan DB TABLE            bounded read of every bucket
    peer.py BOOTSTRAP lookup DB TABLE < keys   keys: [[pk values...], ...]
    peer.py BOOTSTRAP append DB TABLE < rows   rows: [[values...], ...]
    peer.py BOOTSTRAP upsert DB TABLE < rows
    peer.py BOOTSTRAP delete DB TABLE < keys   full rows or pk-only rows

BOOTSTRAP may be "host:port" or "user:password@host:port" (SASL/PLAIN).

Tagged JSON values (scan output, lookup output, rows/keys on stdin). Rows
are lists with one value per column in table order; plain JSON is used
where it is exact, a one-key object tags everything else:

    NULL                      null
    BOOLEAN                   true / false
    TINYINT..BIGINT           JSON integer (exact, any size)
    FLOAT, DOUBLE             JSON number; {"$float": "NaN" | "Infinity" | "-Infinity"}
    CHAR, STRING              JSON string
    BINARY, BYTES             {"$bytes": "<base64>"}
    DECIMAL(p,s)              {"$decimal": "-12.30"}   (plain string, exact, s digits)
    DATE                      {"$date": "2024-02-29"}
    TIME(p)                   {"$time": <milliseconds of day>}
    TIMESTAMP(p)              {"$ts": <nanoseconds since 1970-01-01T00:00 of the wall clock>}
    TIMESTAMP_LTZ(p)          {"$ts": <nanoseconds since the epoch (UTC instant)>}
    ARRAY<t>                  JSON list
    MAP<k,v>                  {"$map": [[k, v], ...]}  (in stored order)
    ROW<...>                  {"$row": [v1, v2, ...]}  (in field order)

scan reads log tables with pyarrow (values exact to the nanosecond) and prints
{"rows": [{"partition": name|null, "bucket": b, "offset": o, "change": "+A"|"+I"|"-U"|"+U"|"-D",
"row": [...]}], "end_offsets": {"<partition>/<bucket>": latest}} sorted by partition,
bucket and offset. Primary-key tables (their changelog) can only be read record by record
in pyfluss 1.0.0, as Python values: their timestamps are exact to the microsecond. lookup prints one row or null per key, decoded from pyfluss' Python values
(timestamps there are limited to microseconds). append writes Arrow batches (exact);
upsert/delete go through pyfluss' row API (microsecond timestamps). All writes are flushed
before the command prints {"written": n}.
"""

import asyncio
import base64
import datetime
import decimal
import inspect
import json
import math
import os
import re
import sys

import fluss
import pyarrow as pa


def arrow_type(spec):
    """Turn a compact type string such as 'decimal128(10,2)' into pyarrow."""
    simple = {
        "bool": pa.bool_(), "int8": pa.int8(), "int16": pa.int16(),
        "int32": pa.int32(), "int64": pa.int64(), "float32": pa.float32(),
        "float64": pa.float64(), "string": pa.string(), "binary": pa.binary(),
        "date32": pa.date32(),
    }
    if spec in simple:
        return simple[spec]
    m = re.fullmatch(r"decimal128\((\d+),(\d+)\)", spec)
    if m:
        return pa.decimal128(int(m.group(1)), int(m.group(2)))
    m = re.fullmatch(r"timestamp\[(s|ms|us|ns)\](?:\[tz\])?", spec)
    if m:
        return pa.timestamp(m.group(1), tz="UTC" if spec.endswith("[tz]") else None)
    m = re.fullmatch(r"fixed\((\d+)\)", spec)
    if m:
        return pa.binary(int(m.group(1)))
    m = re.fullmatch(r"list<(.+)>", spec)
    if m:
        return pa.list_(arrow_type(m.group(1)))
    raise ValueError("unknown type spec " + spec)


async def describe(admin, db, table):
    info = await admin.get_table_info(fluss.TablePath(db, table))
    return {
        "table_id": info.table_id,
        "schema_id": info.schema_id,
        "columns": [list(c) for c in info.get_schema().get_columns()],
        "primary_keys": info.get_primary_keys(),
        "bucket_keys": info.get_bucket_keys(),
        "partition_keys": info.get_partition_keys(),
        "num_buckets": info.num_buckets,
        "comment": info.comment,
        "properties": info.get_properties(),
        "custom_properties": info.get_custom_properties(),
    }


async def create_table(admin, db, table):
    spec = json.load(sys.stdin)
    schema = fluss.Schema(
        pa.schema([(n, arrow_type(t)) for n, t in spec["columns"]]),
        primary_keys=spec.get("primary_keys") or None,
    )
    # pyfluss rejects None for its keyword options: pass only those given.
    keys = ("partition_keys", "bucket_count", "bucket_keys", "comment",
            "properties", "custom_properties")
    desc = fluss.TableDescriptor(schema, **{k: spec[k] for k in keys if spec.get(k)})
    await admin.create_table(fluss.TablePath(db, table), desc, ignore_if_exists=False)
    return await describe(admin, db, table)


UNIT_NANOS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}
EPOCH_DATE = datetime.date(1970, 1, 1)


def tag_array(arr):
    """Tagged JSON values of a pyarrow array, exact for every type."""
    t = arr.type
    if pa.types.is_timestamp(t):
        mult = UNIT_NANOS[t.unit]
        return [None if v is None else {"$ts": v * mult}
                for v in arr.cast(pa.int64()).to_pylist()]
    if pa.types.is_time(t):
        div = UNIT_NANOS[t.unit]
        return [None if v is None else {"$time": v * div // 10**6}
                for v in arr.cast(pa.int64() if pa.types.is_time64(t) else pa.int32()).to_pylist()]
    if pa.types.is_date32(t):
        return [None if v is None else {"$date": (EPOCH_DATE + datetime.timedelta(days=v)).isoformat()}
                for v in arr.cast(pa.int32()).to_pylist()]
    if pa.types.is_decimal(t):
        return [None if v is None else {"$decimal": format(v, "f")} for v in arr.to_pylist()]
    if pa.types.is_binary(t) or pa.types.is_fixed_size_binary(t) or pa.types.is_large_binary(t):
        return [None if v is None else {"$bytes": base64.b64encode(v).decode()} for v in arr.to_pylist()]
    if pa.types.is_floating(t):
        return [tag_float(v) for v in arr.to_pylist()]
    if pa.types.is_map(t):
        out = []
        for i in range(len(arr)):
            s = arr[i]
            if not s.is_valid:
                out.append(None)
                continue
            ent = s.values
            out.append({"$map": [list(p) for p in zip(tag_array(ent.field(0)), tag_array(ent.field(1)))]})
        return out
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return [tag_array(arr[i].values) if arr[i].is_valid else None for i in range(len(arr))]
    if pa.types.is_struct(t):
        fields = [tag_array(arr.field(j)) for j in range(t.num_fields)]
        valid = arr.is_valid().to_pylist()
        return [{"$row": [f[i] for f in fields]} if valid[i] else None for i in range(len(arr))]
    return arr.to_pylist()


def tag_float(v):
    if v is None or math.isfinite(v):
        return v
    return {"$float": "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")}


def tag_py(v, t=None):
    """Tagged JSON of a Python value from pyfluss' row API; t is the
    column's pyarrow type (it tells maps from rows)."""
    if v is None:
        return None
    if t is not None:
        if pa.types.is_map(t):
            items = v.items() if isinstance(v, dict) else v
            return {"$map": [[tag_py(a, t.key_type), tag_py(b, t.item_type)] for a, b in items]}
        if pa.types.is_struct(t):
            vals = [v[t.field(i).name] for i in range(t.num_fields)] if isinstance(v, dict) else list(v)
            return {"$row": [tag_py(x, t.field(i).type) for i, x in enumerate(vals)]}
        if pa.types.is_list(t) or pa.types.is_large_list(t):
            return [tag_py(x, t.value_type) for x in v]
        if pa.types.is_binary(t) or pa.types.is_fixed_size_binary(t):
            return {"$bytes": base64.b64encode(bytes(v)).decode()}
    if isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return tag_float(v)
    if isinstance(v, (bytes, bytearray)):
        return {"$bytes": base64.b64encode(bytes(v)).decode()}
    if isinstance(v, decimal.Decimal):
        return {"$decimal": format(v, "f")}
    if hasattr(v, "value") and hasattr(v, "nanosecond"):  # pandas.Timestamp
        return {"$ts": int(v.value)}
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        d = v - datetime.datetime(1970, 1, 1)
        return {"$ts": (d.days * 86400 + d.seconds) * 10**9 + d.microseconds * 1000}
    if isinstance(v, datetime.date):
        return {"$date": v.isoformat()}
    if isinstance(v, datetime.time):
        return {"$time": ((v.hour * 60 + v.minute) * 60 + v.second) * 1000 + v.microsecond // 1000}
    if isinstance(v, dict):
        return {"$row": [tag_py(x) for x in v.values()]}
    if isinstance(v, (list, tuple)):
        return [tag_py(x) for x in v]
    if hasattr(v, "as_py"):
        return tag_py(v.as_py(), t)
    raise ValueError("cannot tag %r" % (v,))


def untag(v, t):
    """Turn a tagged JSON value into a Python value pa.array accepts for type t."""
    if v is None:
        return None
    if isinstance(v, dict) and len(v) == 1:
        (k, x), = v.items()
        if k == "$ts":
            return x // UNIT_NANOS[t.unit] if pa.types.is_timestamp(t) else x
        if k == "$time":
            return x * 10**6 // UNIT_NANOS[t.unit] if pa.types.is_time(t) else x
        if k == "$date":
            return datetime.date.fromisoformat(x)
        if k == "$decimal":
            return decimal.Decimal(x)
        if k == "$bytes":
            return base64.b64decode(x)
        if k == "$float":
            return float(x.replace("Infinity", "inf"))
        if k == "$map":
            return [(untag(a, t.key_type), untag(b, t.item_type)) for a, b in x]
        if k == "$row":
            return {t.field(i).name: untag(e, t.field(i).type) for i, e in enumerate(x)}
    if isinstance(v, list):
        return [untag(e, t.value_type) for e in v]
    return v


def untag_py(v, t):
    """Like untag, but Python objects for pyfluss' row API."""
    if v is None:
        return None
    if pa.types.is_timestamp(t):
        ns = v["$ts"]
        dt = datetime.datetime(1970, 1, 1) + datetime.timedelta(microseconds=ns // 1000)
        return dt.replace(tzinfo=datetime.timezone.utc) if t.tz else dt
    if pa.types.is_time(t):
        ms = v["$time"]
        return (datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=ms)).time()
    return untag(v, t)


async def maybe(x):
    """pyfluss methods may return awaitables or plain values."""
    return await x if inspect.isawaitable(x) else x


async def scan(conn, admin, db, table):
    path = fluss.TablePath(db, table)
    info = await admin.get_table_info(path)
    buckets = list(range(info.num_buckets))
    targets = {}  # (partition name, partition id) -> {bucket: latest}
    if info.is_partitioned():
        for p in await admin.list_partition_infos(path):
            offs = await admin.list_partition_offsets(path, p.partition_name, buckets, fluss.OffsetSpec.latest())
            targets[(p.partition_name, p.partition_id)] = offs
    else:
        targets[(None, None)] = await admin.list_offsets(path, buckets, fluss.OffsetSpec.latest())
    names = {pid: name for name, pid in targets}
    tbl = await conn.get_table(path)

    async def read(make):
        scanner = await maybe(make())
        want = {}
        for (name, pid), offs in targets.items():
            for b, end in offs.items():
                if end > 0:
                    want[(pid, b)] = end
                    if pid is None:
                        await maybe(scanner.subscribe(b, fluss.EARLIEST_OFFSET))
                    else:
                        await maybe(scanner.subscribe_partition(pid, b, fluss.EARLIEST_OFFSET))
        return scanner, want

    sch = tbl.arrow_schema() if callable(tbl.arrow_schema) else tbl.arrow_schema
    names_ = [f.name for f in sch]
    values = {}
    changes = {}
    # Change types (and, for primary-key tables, whose changelog pyfluss
    # only reads record by record, the values) from the record scanner.
    scanner, want = await read(lambda: tbl.new_scan().create_log_scanner())
    done = {k: 0 for k in want}
    idle = 0  # header-only batches (no records) can end a changelog
    while any(done[k] < want[k] for k in want) and idle < 5:
        recs = await maybe(scanner.poll(2000))
        idle = 0 if recs.count() else idle + 1
        for bucket, lst in recs.items():
            key = (bucket.partition_id, bucket.bucket_id)
            for r in lst:
                if r.offset >= want.get(key, 0):
                    continue
                changes[(key, r.offset)] = r.change_type.short_string()
                if info.has_primary_key():
                    row = r.row
                    values[(key, r.offset)] = [tag_py(row[n], f.type) for n, f in zip(names_, sch)]
                done[key] = max(done[key], r.offset + 1)
    if info.has_primary_key():
        return finish(values, changes, names, targets)
    # Log tables: values, exact, from Arrow batches.
    scanner, want = await read(lambda: tbl.new_scan().create_record_batch_log_scanner())
    done = {k: 0 for k in want}
    idle = 0
    while any(done[k] < want[k] for k in want) and idle < 5:
        got = await maybe(scanner.poll_record_batch(2000))
        idle = 0 if got else idle + 1
        for rb in got:
            key = (rb.bucket.partition_id, rb.bucket.bucket_id)
            rows = rb.batch
            cols = [tag_array(rows.column(j)) for j in range(rows.num_columns)]
            for i in range(rows.num_rows):
                off = rb.base_offset + i
                if off < want.get(key, 0):
                    values[(key, off)] = [c[i] for c in cols]
            done[key] = max(done.get(key, 0), rb.last_offset + 1)
    return finish(values, changes, names, targets)


def finish(values, changes, names, targets):
    out = []
    for (key, off), row in values.items():
        pid, b = key
        out.append({"partition": names.get(pid), "bucket": b, "offset": off,
                    "change": changes.get((key, off), "?"), "row": row})
    out.sort(key=lambda r: (r["partition"] or "", r["bucket"], r["offset"]))
    ends = {"%s/%d" % (name or "", b): e for (name, _), offs in targets.items() for b, e in offs.items()}
    return {"rows": out, "end_offsets": ends}


async def append(conn, db, table):
    rows = json.load(sys.stdin)
    tbl = await conn.get_table(fluss.TablePath(db, table))
    sch = tbl.arrow_schema() if callable(tbl.arrow_schema) else tbl.arrow_schema
    info = tbl.get_table_info()
    pidx = [info.get_column_names().index(k) for k in info.get_partition_keys()]
    groups = {}
    for r in rows:
        groups.setdefault(json.dumps([r[i] for i in pidx]), []).append(r)
    writer = await maybe(tbl.new_append().create_writer())
    for grp in groups.values():
        arrays = [pa.array([untag(r[j], f.type) for r in grp], type=f.type) for j, f in enumerate(sch)]
        await maybe(writer.write_arrow_batch(pa.RecordBatch.from_arrays(arrays, schema=sch)))
    await writer.flush()
    return {"written": len(rows)}


async def upsert(conn, db, table, delete=False):
    rows = json.load(sys.stdin)
    tbl = await conn.get_table(fluss.TablePath(db, table))
    sch = tbl.arrow_schema() if callable(tbl.arrow_schema) else tbl.arrow_schema
    info = tbl.get_table_info()
    names = info.get_column_names()
    pk = info.get_primary_keys()
    writer = await maybe(tbl.new_upsert().create_writer())
    for r in rows:
        if delete:
            if len(r) == len(names):
                r = [r[names.index(k)] for k in pk]
            await maybe(writer.delete([untag_py(v, sch.field(names.index(k)).type) for v, k in zip(r, pk)]))
        else:
            await maybe(writer.upsert([untag_py(v, f.type) for v, f in zip(r, sch)]))
    await writer.flush()
    return {"written": len(rows)}


async def lookup(conn, db, table):
    keys = json.load(sys.stdin)
    tbl = await conn.get_table(fluss.TablePath(db, table))
    sch = tbl.arrow_schema() if callable(tbl.arrow_schema) else tbl.arrow_schema
    info = tbl.get_table_info()
    names = info.get_column_names()
    pk = info.get_primary_keys()
    lk = await maybe(tbl.new_lookup().create_lookuper())
    out = []
    for k in keys:
        got = await lk.lookup([untag_py(v, sch.field(names.index(n)).type) for v, n in zip(k, pk)])
        out.append(None if got is None else [tag_py(got[n], f.type) for n, f in zip(names, sch)])
    return out


def connect_config(bootstrap):
    props = {"bootstrap.servers": bootstrap}
    if "@" in bootstrap:
        cred, addr = bootstrap.rsplit("@", 1)
        user, _, password = cred.partition(":")
        props.update({"bootstrap.servers": addr, "security.protocol": "sasl",
                      "security.sasl.mechanism": "PLAIN", "security.sasl.username": user,
                      "security.sasl.password": password})
    return fluss.Config(props)


async def main(argv):
    bootstrap, command, args = argv[1], argv[2], argv[3:]
    conn = await fluss.FlussConnection.create(connect_config(bootstrap))
    try:
        admin = conn.get_admin()
        if command == "describe":
            return await describe(admin, *args)
        if command == "create-table":
            return await create_table(admin, *args)
        if command == "databases":
            return sorted(await admin.list_databases())
        if command == "scan":
            return await scan(conn, admin, *args)
        if command == "lookup":
            return await lookup(conn, *args)
        if command == "append":
            return await append(conn, *args)
        if command == "upsert":
            return await upsert(conn, *args)
        if command == "delete":
            return await upsert(conn, *args, delete=True)
        raise ValueError("unknown command " + command)
    finally:
        await conn.close()


def run():
    try:
        print(json.dumps(asyncio.run(main(sys.argv)), sort_keys=True))
        status = 0
    except fluss.FlussError as e:
        print(json.dumps({"error": e.message, "code": e.error_code}))
        status = 1
    # pyfluss 1.0.0 sometimes aborts while the interpreter tears down its
    # native runtime, after all work is done; leave without that teardown.
    sys.stdout.flush()
    os._exit(status)


if __name__ == "__main__":
    run()
