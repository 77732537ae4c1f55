package planner

import (
	"context"
	"fmt"
	"testing"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/parser"
)

// fakeCatalog is an in-memory Catalog.
type fakeCatalog struct {
	tables map[schema.TablePath]*schema.TableInfo
}

func (c *fakeCatalog) TableInfo(_ context.Context, path schema.TablePath) (*schema.TableInfo, error) {
	if t, ok := c.tables[path]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("table %s does not exist", path)
}

// fixtureDDL builds the fake catalog's tables (through the planner itself).
var fixtureDDL = []string{
	// Log table.
	`CREATE TABLE events (id BIGINT, name STRING, amount DOUBLE, ts TIMESTAMP(3)) WITH ('bucket.num' = '4')`,
	// Partitioned log table with a NOT NULL column.
	`CREATE TABLE logs (dt STRING, msg STRING NOT NULL, level INT) PARTITIONED BY (dt)`,
	// PK table.
	`CREATE TABLE orders (order_id BIGINT, customer STRING, amount DECIMAL(10, 2), status STRING, created TIMESTAMP_LTZ(3),
	  PRIMARY KEY (order_id) NOT ENFORCED) WITH ('bucket.num' = '3')`,
	// Composite PK with a NOT NULL value column.
	`CREATE TABLE kv2 (k1 INT, k2 STRING, v BIGINT NOT NULL, w STRING, PRIMARY KEY (k1, k2) NOT ENFORCED)`,
	// Partitioned PK table whose bucket key is a PK prefix.
	`CREATE TABLE sales (dt STRING, shop_id BIGINT, item STRING, qty INT, price DOUBLE,
	  PRIMARY KEY (dt, shop_id, item) NOT ENFORCED) PARTITIONED BY (dt) WITH ('bucket.key' = 'shop_id', 'bucket.num' = '2')`,
	// Merge engines.
	`CREATE TABLE agg_t (id BIGINT, total BIGINT, tags STRING, PRIMARY KEY (id) NOT ENFORCED)
	  WITH ('table.merge-engine' = 'aggregation', 'fields.total.agg' = 'sum', 'fields.tags.agg' = 'listagg', 'fields.tags.listagg.delimiter' = ';')`,
	`CREATE TABLE first_t (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('table.merge-engine' = 'first_row')`,
	// Auto-increment dictionary table.
	`CREATE TABLE dict (name STRING, uid BIGINT, note STRING, PRIMARY KEY (name) NOT ENFORCED) WITH ('auto-increment.fields' = 'uid')`,
	`CREATE TABLE pdict (dt STRING, name STRING, uid BIGINT, PRIMARY KEY (dt, name) NOT ENFORCED) PARTITIONED BY (dt) WITH ('auto-increment.fields' = 'uid')`,
	// WAL changelog image and disabled deletes.
	`CREATE TABLE wal_t (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('table.changelog.image' = 'WAL')`,
	`CREATE TABLE nodel (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('table.delete.behavior' = 'DISABLE')`,
	// Flink metadata: computed column and watermark.
	`CREATE TABLE clicks (user_id BIGINT, url STRING, ts TIMESTAMP(3), ts_ltz AS CAST(ts AS TIMESTAMP_LTZ(3)),
	  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) COMMENT 'click stream' WITH ('scan.startup.mode' = 'earliest')`,
	// Every type.
	`CREATE TABLE types_t (id INT, b BOOLEAN, ti TINYINT, si SMALLINT, bi BIGINT, f FLOAT, d DOUBLE, c CHAR(3), s STRING,
	  bin BINARY(2), bs BYTES, dec DECIMAL(5, 2), dt DATE, tm TIME, tsp TIMESTAMP(6), ltz TIMESTAMP_LTZ(3),
	  arr ARRAY<INT>, m MAP<STRING, INT>, r ROW<x INT, y STRING>, PRIMARY KEY (id) NOT ENFORCED)`,
	// PK table with a stored streaming default.
	`CREATE TABLE pk_latest (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('scan.startup.mode' = 'latest')`,
	// PK table whose bucket key is a subset but not a prefix of the key.
	`CREATE TABLE kv3 (a INT, b INT, c INT, v STRING, PRIMARY KEY (a, b, c) NOT ENFORCED) WITH ('bucket.key' = 'b')`,
}

func newFakeCatalog(t testing.TB) *fakeCatalog {
	c := &fakeCatalog{tables: map[schema.TablePath]*schema.TableInfo{}}
	for i, ddl := range fixtureDDL {
		st, err := parser.Parse(ddl)
		if err != nil {
			t.Fatalf("fixture %d: %v", i, err)
		}
		pl, err := Build(context.Background(), st, c, nil)
		if err != nil {
			t.Fatalf("fixture %d: %v", i, err)
		}
		ct := pl.(*CreateTable)
		c.tables[ct.Path] = &schema.TableInfo{Path: ct.Path, TableID: int64(100 + i), SchemaID: 1, Descriptor: ct.Descriptor}
	}
	return c
}
