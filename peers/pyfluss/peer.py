"""Drive pyfluss, the independent Python client, for cross-client checks.

The Go test suite runs this script with the venv that `make peers` creates.
Every sub-command prints one JSON document on stdout; a failure prints
{"error": ..., "code": ...} and exits 1, so the Go side can assert on codes.

    peer.py BOOTSTRAP describe DB TABLE
    peer.py BOOTSTRAP create-table DB TABLE < spec.json
    peer.py BOOTSTRAP databases
"""

import asyncio
import json
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


async def main(argv):
    bootstrap, command, args = argv[1], argv[2], argv[3:]
    conn = await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": bootstrap}))
    try:
        admin = conn.get_admin()
        if command == "describe":
            return await describe(admin, *args)
        if command == "create-table":
            return await create_table(admin, *args)
        if command == "databases":
            return sorted(await admin.list_databases())
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
