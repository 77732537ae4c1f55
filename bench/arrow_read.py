"""Peer figures for `scan1m -python`: reading a whole log table as one
Arrow table, through the Flight SQL server with ADBC, or with pyfluss.

    python bench/arrow_read.py adbc URI QUERY
    python bench/arrow_read.py pyfluss BOOTSTRAP DATABASE TABLE

Times from the query (or the subscription) to the complete table, the
connection excluded. Prints {"rows": N, "seconds": S}.
"""

import asyncio
import json
import sys
import time


def adbc(uri, query):
    import adbc_driver_flightsql.dbapi as flight_sql

    with flight_sql.connect(uri, autocommit=True) as conn, conn.cursor() as cur:
        start = time.perf_counter()
        cur.execute(query)
        table = cur.fetch_arrow_table()
        return table.num_rows, time.perf_counter() - start


async def pyfluss(bootstrap, database, table):
    import fluss

    conn = await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": bootstrap}))
    tbl = await conn.get_table(fluss.TablePath(database, table))
    scanner = await tbl.new_scan().create_record_batch_log_scanner()
    buckets = tbl.get_table_info().num_buckets
    start = time.perf_counter()
    scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(buckets)})
    data = await scanner.to_arrow()
    return data.num_rows, time.perf_counter() - start


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "adbc":
        rows, secs = adbc(*args)
    else:
        rows, secs = asyncio.run(pyfluss(*args))
    print(json.dumps({"rows": rows, "seconds": secs}))


if __name__ == "__main__":
    main()
