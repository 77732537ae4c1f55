# %% [markdown]
# # Fluss from a Python notebook, through Arrow Flight SQL
#
# A notebook-style session (run it cell by cell in Jupyter or VS Code, or
# as a script): Python's ADBC Flight SQL driver talks to the project's
# Flight SQL server, which runs the SQL against Fluss. No Flink involved.
#
# Start the server first (it starts the local cluster if none runs):
#
#     make flightsql            # prints: listening on 127.0.0.1:32010
#
# and install the client: pip install adbc-driver-flightsql pyarrow
# (`make peers` puts both in .venv). The settings below can be changed
# with FLIGHTSQL_URI, FLIGHTSQL_USER, FLIGHTSQL_PASSWORD and FLIGHTSQL_DB.

# %%
import datetime
import decimal
import os

import adbc_driver_flightsql.dbapi as flight_sql
import pyarrow as pa

uri = os.environ.get("FLIGHTSQL_URI", "grpc://127.0.0.1:32010")
db = os.environ.get("FLIGHTSQL_DB", "notebook")
conn = flight_sql.connect(
    uri,
    db_kwargs={
        "username": os.environ.get("FLIGHTSQL_USER", "admin"),
        "password": os.environ.get("FLIGHTSQL_PASSWORD", "admin-secret"),
    },
    autocommit=True,  # every statement writes at once (no write batch)
)
cur = conn.cursor()
print(conn.adbc_get_info()["vendor_name"])

# %% [markdown]
# ## A database and a log table, in Flink SQL

# %%
cur.execute(f"CREATE DATABASE IF NOT EXISTS {db}")
cur.execute(
    f"CREATE TABLE IF NOT EXISTS {db}.trips (id BIGINT NOT NULL, city STRING, "
    "fare DECIMAL(8, 2), started TIMESTAMP(3))"
)

# %% [markdown]
# ## Bulk ingest of an Arrow table (appended through the native Arrow writer)

# %%
trips = pa.table(
    {
        "id": pa.array([1, 2, 3], pa.int64()),
        "city": ["Berlin", "Lisbon", "Berlin"],
        "fare": pa.array([decimal.Decimal(x) for x in ("12.50", "8.00", "21.75")], pa.decimal128(8, 2)),
        "started": pa.array([datetime.datetime(2024, 5, 1, 8, m) for m in (0, 15, 30)], pa.timestamp("ms")),
    }
)
print("ingested", cur.adbc_ingest("trips", trips, mode="append", db_schema_name=db), "rows")

# %% [markdown]
# ## Query results come back as Arrow (to_pandas() works when pandas is installed)

# %%
cur.execute(f"SELECT id, city, fare FROM {db}.trips")
result = cur.fetch_arrow_table()
print(result.sort_by("id"))

# %% [markdown]
# ## Parameters are bound from Python values, sent as an Arrow batch

# %%
cur.execute(f"SELECT COUNT(*) FROM {db}.trips")
print("rows in trips:", cur.fetchone()[0])
cur.executemany(f"INSERT INTO {db}.trips VALUES (?, ?, ?, ?)", [(4, "Porto", decimal.Decimal("5.25"), None)])

# %% [markdown]
# ## What BI tools see: databases, tables and their Arrow schemas

# %%
for catalog in conn.adbc_get_objects(depth="tables", db_schema_filter=db).read_all().to_pylist():
    for schema in catalog["catalog_db_schemas"]:
        print(catalog["catalog_name"], schema["db_schema_name"], [t["table_name"] for t in schema["db_schema_tables"]])
print(conn.adbc_get_table_schema("trips", db_schema_filter=db))

# %%
cur.execute(f"DROP DATABASE {db} CASCADE")
cur.close()
conn.close()
