"""Checks the Flight SQL server with ADBC's Flight SQL driver, a client
nobody in this project wrote: DDL, ingest of an Arrow table, queries read
back as Arrow and compared, prepared statements with parameters, catalog
metadata, a wrong password refused, and a scan whose ZSTD log batches the
server passes through for the driver to decompress.

Usage: check.py URI USER PASSWORD DATABASE

Prints one JSON object with what it saw; any failed check raises, which
exits non-zero with the traceback on stderr.
"""

import datetime
import decimal
import json
import sys

import adbc_driver_flightsql.dbapi as flight_sql
import adbc_driver_manager
import pyarrow as pa


# The call header by which a client asks for log batches as Fluss stored
# them, ZSTD-compressed bodies included (the driver decompresses them).
IPC_COMPRESSION = {"adbc.flight.sql.rpc.call_header.x-fluss-ipc-compression": "zstd"}


def connect(uri, user, password, autocommit=False, **options):
    return flight_sql.connect(uri, db_kwargs={"username": user, "password": password, **options}, autocommit=autocommit)


def check_passthrough(uri, user, password, db):
    """Reads a ZSTD log table (the default compression) whole and with
    columns in table order, asking for its batches undecoded, and outside
    a transaction by the partitions (endpoints) of its scan, and compares
    with what was written."""
    n = 5000
    table = pa.table(
        {
            "id": pa.array(range(n), pa.int64()),
            "name": pa.array([None if i % 7 == 0 else "name-%d" % i for i in range(n)], pa.string()),
            "v": pa.array([i * 0.5 for i in range(n)], pa.float64()),
            "amount": pa.array([decimal.Decimal(i) / 100 for i in range(n)], pa.decimal128(12, 2)),
            "at": pa.array([datetime.datetime(2024, 1, 1) + datetime.timedelta(seconds=i) for i in range(n)], pa.timestamp("ms")),
        }
    )
    with connect(uri, user, password, **IPC_COMPRESSION) as conn, conn.cursor() as cur:
        cur.execute(f"CREATE TABLE {db}.scan (id BIGINT, name STRING, v DOUBLE, amount DECIMAL(12, 2), at TIMESTAMP(3)) WITH ('bucket.num' = '3')")
        for lo in range(0, n, 1000):  # several log batches per bucket
            assert cur.adbc_ingest("scan", table.slice(lo, 1000), mode="append", db_schema_name=db) == 1000
        conn.commit()
        for cols in (table.column_names, ["id", "v", "at"]):
            cur.execute(f"SELECT {', '.join(cols)} FROM {db}.scan")
            got = cur.fetch_arrow_table().sort_by("id")
            want = table.select(cols)
            assert got.schema == want.schema, (got.schema, want.schema)
            assert got.equals(want), "rows read through the pass-through differ"
        # Outside a transaction the scan comes as one endpoint per bucket
        # (ADBC reads them at once); each read alone holds its buckets'
        # rows (a bucket may have none: the writer fills one at a time),
        # together all.
        with connect(uri, user, password, autocommit=True, **IPC_COMPRESSION) as auto, auto.cursor() as acur:
            acur.execute(f"SELECT * FROM {db}.scan")
            assert acur.fetch_arrow_table().sort_by("id").equals(table), "rows read from several endpoints differ"
            parts, _ = acur.adbc_execute_partitions(f"SELECT * FROM {db}.scan")
            assert len(parts) == 3, len(parts)
            pieces = []
            for part in parts:
                acur.adbc_read_partition(part)
                pieces.append(acur.fetch_arrow_table())
        assert pa.concat_tables(pieces).sort_by("id").equals(table), "the partitions do not hold every row once"
        cur.execute(f"DROP TABLE {db}.scan")
    return n


def check_wrong_password(uri, user, password):
    wrong = password + "-wrong"
    try:
        with connect(uri, user, wrong) as conn, conn.cursor() as cur:
            cur.execute("SHOW DATABASES")
            cur.fetchall()
    except adbc_driver_manager.Error as e:
        assert wrong not in str(e), "the error shows the password"
        assert "nauthenticated" in str(e) or "UNAUTHENTICATED" in str(e), str(e)
        return str(e).splitlines()[0]
    raise AssertionError("a wrong password was accepted")


def main():
    uri, user, password, db = sys.argv[1:5]
    seen = {"refused": check_wrong_password(uri, user, password)}
    seen["passed_through_rows"] = check_passthrough(uri, user, password, db)
    with connect(uri, user, password) as conn:
        with conn.cursor() as cur:
            # DDL through the ordinary execute (a query to the server).
            cur.execute(
                f"CREATE TABLE {db}.orders (id BIGINT NOT NULL, name STRING, "
                "amount DECIMAL(10, 2), at TIMESTAMP(3), seen TIMESTAMP_LTZ(3), PRIMARY KEY (id) NOT ENFORCED)"
            )
            # Ingest an Arrow table into the primary-key table.
            table = pa.table(
                {
                    "id": pa.array([1, 2, 3], pa.int64()),
                    "name": pa.array(["one", "two", None], pa.string()),
                    "amount": pa.array(
                        [decimal.Decimal("1.50"), None, decimal.Decimal("-3.25")],
                        pa.decimal128(10, 2),
                    ),
                    "at": pa.array(
                        [datetime.datetime(2024, 1, 2, 3, 4, 5, 678000), None, datetime.datetime(1999, 12, 31)],
                        pa.timestamp("ms"),
                    ),
                    # An instant: the server marks TIMESTAMP_LTZ with UTC,
                    # so it reads back tz-aware, unlike the wall clock "at".
                    "seen": pa.array(
                        [datetime.datetime(2024, 1, 2, 3, 4, 5, 678000, tzinfo=datetime.timezone.utc), None, None],
                        pa.timestamp("ms", tz="UTC"),
                    ),
                }
            )
            seen["ingested"] = cur.adbc_ingest("orders", table, mode="append", db_schema_name=db)
            assert seen["ingested"] == 3, seen

            # Read back as Arrow and compare, types included.
            cur.execute(f"SELECT * FROM {db}.orders ORDER BY id")
            got = cur.fetch_arrow_table()
            assert got.column_names == table.column_names, got.schema
            for name in table.column_names:
                assert got.schema.field(name).type == table.schema.field(name).type, (name, got.schema)
            assert got.to_pylist() == table.to_pylist(), got.to_pylist()

            # A log table created by ingest from the Arrow schema.
            events = pa.table({"msg": pa.array(["a", "b"], pa.string()), "n": pa.array([1, 2], pa.int32())})
            assert cur.adbc_ingest("events", events, mode="create", db_schema_name=db) == 2
            cur.execute(f"SELECT msg, n FROM {db}.events")
            assert sorted(cur.fetchall()) == [("a", 1), ("b", 2)]

            # Prepared statements with parameters. DB-API connections do
            # not autocommit: ADBC opens a transaction, which the server
            # maps to a write batch, sent at commit and dropped at rollback.
            insert = f"INSERT INTO {db}.orders VALUES (?, ?, ?, ?, ?)"
            cur.executemany(insert, [(4, "four", decimal.Decimal("4.00"), datetime.datetime(2024, 5, 6, 7, 8, 9), None)])
            conn.commit()
            # A cursor keeps its prepared statement, which belongs to the
            # ended transaction: the server refuses it rather than write
            # outside the new one, and a new cursor prepares again.
            try:
                cur.executemany(insert, [(5, "five", None, None, None)])
                raise AssertionError("a statement of an ended transaction ran")
            except adbc_driver_manager.Error as e:
                assert "has ended" in str(e), str(e)
            with conn.cursor() as again:
                again.executemany(insert, [(5, "five", None, None, None)])
            conn.rollback()
            cur.execute(f"SELECT id FROM {db}.orders WHERE id = ?", parameters=(5,))
            assert cur.fetchall() == [], "a rolled back INSERT was written"
            cur.execute(f"SELECT name, amount FROM {db}.orders WHERE id = ?", parameters=(4,))
            seen["prepared"] = [list(map(str, r)) for r in cur.fetchall()]
            assert seen["prepared"] == [["four", "4.00"]], seen["prepared"]

        # Metadata.
        info = conn.adbc_get_info()
        seen["vendor"] = info.get("vendor_name")
        assert "Fluss" in str(seen["vendor"]), info
        objects = conn.adbc_get_objects(depth="all", db_schema_filter=db).read_all().to_pylist()
        tables = {}
        for catalog in objects:
            for schema in catalog["catalog_db_schemas"] or []:
                for t in schema["db_schema_tables"] or []:
                    tables[t["table_name"]] = [c["column_name"] for c in t["table_columns"] or []]
        assert tables == {"events": ["msg", "n"], "orders": ["id", "name", "amount", "at", "seen"]}, tables
        seen["tables"] = tables
        schema = conn.adbc_get_table_schema("orders", db_schema_filter=db)
        assert schema.field("amount").type == pa.decimal128(10, 2), schema
        assert schema.field("seen").type == pa.timestamp("ms", tz="UTC"), schema
        assert schema.field("at").type == pa.timestamp("ms"), schema
        assert "TABLE" in conn.adbc_get_table_types()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
