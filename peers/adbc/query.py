"""Runs queries through ADBC's Flight SQL driver and prints what came back,
for the Go tests to compare with results they computed themselves.

Usage: query.py URI USER PASSWORD DATABASE < queries.json

stdin is a JSON list of SQL texts; stdout one JSON list with, per query,
{"columns": [...], "types": [...], "rows": [[...]]} (Arrow type names,
values as text, None for NULL) or {"error": "..."}.
"""

import json
import sys

import adbc_driver_flightsql.dbapi as flight_sql


def text(v):
    if v is None:
        return None
    if hasattr(v, "isoformat"):
        return v.isoformat(sep=" ") if hasattr(v, "hour") and hasattr(v, "day") else v.isoformat()
    return str(v)


def main():
    uri, user, password, db = sys.argv[1:5]
    queries = json.load(sys.stdin)
    out = []
    with flight_sql.connect(uri, db_kwargs={"username": user, "password": password}, autocommit=True) as conn:
        with conn.cursor() as cur:
            cur.execute("USE " + db)
            for q in queries:
                try:
                    cur.execute(q)
                    table = cur.fetch_arrow_table()
                except Exception as e:  # the test shows which query failed and why
                    out.append({"error": str(e)})
                    continue
                rows = [[text(v) for v in row.values()] for row in table.to_pylist()]
                out.append({"columns": table.column_names, "types": [str(f.type) for f in table.schema], "rows": rows})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
