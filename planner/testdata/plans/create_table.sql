-- CREATE TABLE.
CREATE TABLE t_log (a BIGINT, b STRING COMMENT 'the b', c DOUBLE NOT NULL)

CREATE TABLE IF NOT EXISTS shop.t_pk (id BIGINT PRIMARY KEY NOT ENFORCED, name STRING) COMMENT 'pk table'

CREATE TABLE fluss_catalog.fluss.t_cat (id INT)

CREATE TABLE other.fluss.t_cat (id INT)

CREATE TABLE t_full (
  dt STRING,
  shop_id BIGINT,
  item STRING,
  qty INT,
  CONSTRAINT pk PRIMARY KEY (dt, shop_id, item) NOT ENFORCED
) PARTITIONED BY (dt) WITH (
  'connector' = 'fluss',
  'bucket.num' = '8',
  'bucket.key' = 'shop_id',
  'table.log.format' = 'ARROW',
  'table.auto-partition.enabled' = 'true',
  'table.auto-partition.time-unit' = 'DAY',
  'scan.startup.mode' = 'latest',
  'client.writer.acks' = 'all',
  'my.key' = 'v'
)

CREATE TABLE t_agg (id BIGINT, total BIGINT, names STRING, PRIMARY KEY (id) NOT ENFORCED) WITH (
  'table.merge-engine' = 'aggregation', 'fields.total.agg' = 'sum', 'fields.names.agg' = 'listagg', 'fields.names.listagg.delimiter' = '|')

CREATE TABLE t_ver (id BIGINT, ver BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH (
  'table.merge-engine' = 'versioned', 'table.merge-engine.versioned.ver-column' = 'ver')

CREATE TABLE t_auto (name STRING, uid BIGINT, PRIMARY KEY (name) NOT ENFORCED) WITH ('auto-increment.fields' = 'uid')

CREATE TABLE t_wm (id BIGINT, ts TIMESTAMP(3), ts2 AS ts, proc AS PROCTIME(), expr AS id + 1,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)

CREATE TABLE t_types (a TINYINT, b SMALLINT, c INTEGER, d DECIMAL, e NUMERIC(20, 4), f TIME(3), g TIMESTAMP, h TIMESTAMP(3) WITH LOCAL TIME ZONE,
  i ARRAY<ROW<x INT, `y z` STRING 'desc'>>, j MAP<STRING, ARRAY<INT>>, k BINARY(4), l BYTES, m CHAR(5), n VARCHAR, o DOUBLE PRECISION)

CREATE TABLE t_dist (a BIGINT, b STRING) DISTRIBUTED BY HASH(a) INTO 4 BUCKETS

CREATE TABLE t_like LIKE orders

CREATE TABLE t_like2 (extra STRING) WITH ('bucket.num' = '7') LIKE sales (EXCLUDING OPTIONS)

CREATE TABLE t_like3 LIKE clicks (EXCLUDING WATERMARKS EXCLUDING GENERATED)

CREATE TABLE t_like4 (id2 BIGINT, PRIMARY KEY (id2) NOT ENFORCED) LIKE orders

CREATE TABLE t_like5 LIKE nosuch

-- Rejections.
CREATE TABLE t_bad (a VARCHAR(255))

CREATE TABLE t_bad (a TEXT, b DATETIME(3))

CREATE TABLE t_bad (a INTERVAL DAY)

CREATE TABLE t_bad (id BIGINT, PRIMARY KEY (id))

CREATE TABLE t_bad (id BIGINT PRIMARY KEY, b INT)

CREATE TABLE `t bad` (a INT)

CREATE TABLE `__t` (a INT)

CREATE TABLE t_bad (__offset BIGINT)

CREATE TABLE t_bad (a INT, __bucket INT)

CREATE TABLE t_bad (a ARRAY<INT>, b INT, PRIMARY KEY (a) NOT ENFORCED)

CREATE TABLE t_bad (a INT, b STRING, PRIMARY KEY (a) NOT ENFORCED) PARTITIONED BY (b)

CREATE TABLE t_bad (a INT, b STRING, c INT, PRIMARY KEY (a, b) NOT ENFORCED) WITH ('bucket.key' = 'c')

CREATE TABLE t_bad (a INT, b STRING, c INT, PRIMARY KEY (a, b) NOT ENFORCED) PARTITIONED BY (b) WITH ('bucket.key' = 'b')

CREATE TABLE t_bad (a INT, m MAP<STRING, INT>) WITH ('bucket.key' = 'm')

CREATE TABLE t_bad (a INT, PRIMARY KEY (x) NOT ENFORCED)

CREATE TABLE t_bad (a INT, m ROW<x INT>) PARTITIONED BY (m)

CREATE TABLE t_bad (a INT, b INT, PRIMARY KEY (a) NOT ENFORCED) WITH ('fields.b.agg' = 'sum')

CREATE TABLE t_bad (a INT, b INT, PRIMARY KEY (a) NOT ENFORCED) WITH ('table.merge-engine' = 'aggregation', 'fields.b.agg' = 'median')

CREATE TABLE t_bad (a INT, b INT, PRIMARY KEY (a) NOT ENFORCED) WITH ('table.merge-engine' = 'last_row')

CREATE TABLE t_bad (a INT, b INT, PRIMARY KEY (a) NOT ENFORCED) WITH ('table.merge-engine' = 'versioned')

CREATE TABLE t_bad (a INT, b STRING, PRIMARY KEY (a) NOT ENFORCED) WITH ('table.merge-engine' = 'versioned', 'table.merge-engine.versioned.ver-column' = 'b')

CREATE TABLE t_bad (a INT, b STRING) WITH ('auto-increment.fields' = 'a')

CREATE TABLE t_bad (a INT, b STRING, PRIMARY KEY (a) NOT ENFORCED) WITH ('auto-increment.fields' = 'b')

CREATE TABLE t_bad (a INT, b BIGINT, PRIMARY KEY (a) NOT ENFORCED) WITH ('auto-increment.fields' = 'a')

CREATE TABLE t_bad (a INT) WITH ('connector' = 'kafka')

CREATE TABLE t_bad (a INT) WITH ('bucket.num' = 'zero')

CREATE TABLE t_bad (a INT, b INT METADATA FROM 'offset')

CREATE TEMPORARY TABLE t_tmp (a INT) WITH ('connector' = 'datagen')

CREATE TABLE t_bad (a INT, a STRING)

CREATE TABLE t_bad (a INT, b INT, PRIMARY KEY (a, b) NOT ENFORCED) PARTITIONED BY (a, b)

CREATE TABLE t_bad (a DECIMAL(40, 2))

-- MySQL-flavoured DDL: strict rejects, lenient maps.
CREATE TABLE users (id BIGINT NOT NULL AUTO_INCREMENT, name VARCHAR(64), PRIMARY KEY (id)) ENGINE=InnoDB

-- @lenient
CREATE TABLE users (id BIGINT NOT NULL AUTO_INCREMENT, name VARCHAR(64), bio TEXT, born DATETIME(3), ok BOOL, PRIMARY KEY (id), KEY idx_name (name)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4

CREATE TABLE users2 (id BIGINT PRIMARY KEY, seq BIGINT AUTO_INCREMENT, name VARCHAR(64))

-- @reset
CREATE OR REPLACE TABLE t (a INT)

CREATE TABLE t2 AS SELECT * FROM orders

CREATE TABLE t3 (a INT) DISTRIBUTED BY RANGE(a) INTO 2 BUCKETS

CREATE TABLE t3 (a INT, b INT) DISTRIBUTED BY HASH(a) WITH ('bucket.key' = 'b')
