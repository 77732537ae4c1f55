-- The SELECT planner P1–P9.
-- P1 point lookups.
SELECT * FROM orders WHERE order_id = 1

SELECT status, amount AS amt FROM orders WHERE order_id = ?

SELECT * FROM orders WHERE 1 = order_id

SELECT * FROM orders WHERE order_id IN (1, 2, ?)

SELECT * FROM kv2 WHERE k1 = 1 AND k2 = 'a'

SELECT * FROM kv2 WHERE (k1, k2) IN ((1, 'a'), (2, 'b'))

SELECT * FROM orders WHERE order_id = 1 AND status = 'paid'

SELECT * FROM orders WHERE order_id = 1 LIMIT 1

SELECT * FROM sales WHERE dt = '2024-01-01' AND shop_id = 7 AND item = 'apple'

SELECT * FROM orders o WHERE o.order_id = 1

SELECT * FROM orders WHERE x.order_id = 1

SELECT * FROM orders WHERE order_id = NULL

SELECT * FROM dict /*+ OPTIONS('lookup.insert-if-not-exists' = 'true') */ WHERE name = 'a'

SELECT * FROM orders /*+ OPTIONS('lookup.insert-if-not-exists' = 'true') */ WHERE order_id = 1

SELECT * FROM pdict /*+ OPTIONS('lookup.insert-if-not-exists' = 'true') */ WHERE dt = '2026-12-01' AND name = 'a'

SELECT * FROM dict /*+ OPTIONS('lookup.insert-if-not-exists' = 'yes') */ WHERE name = 'a'

-- P2 prefix lookup.
SELECT * FROM sales WHERE dt = '2024-01-01' AND shop_id = 7

SELECT item, qty FROM sales WHERE dt = ? AND shop_id = ? AND qty > 2

-- P3 COUNT(*).
SELECT COUNT(*) FROM events

SELECT COUNT(*) AS n FROM orders

SELECT COUNT(1) FROM logs WHERE dt = '2024-01-01'

SELECT COUNT(*) FROM events WHERE id = 1

SELECT COUNT(*) FROM wal_t

SELECT COUNT(id) FROM events

SELECT SUM(amount) FROM events

-- P4 LIMIT scans.
SELECT * FROM events LIMIT 10

SELECT id, name FROM events LIMIT 10 OFFSET 5

SELECT * FROM orders LIMIT ?

SELECT * FROM logs WHERE dt IN ('2024-01-01', '2024-01-02') LIMIT 5

SELECT * FROM logs WHERE dt LIKE '2024-01%' OR dt IS NULL LIMIT 5

SELECT * FROM events LIMIT -1

-- P5 bounded log scans.
SELECT * FROM events

SELECT msg FROM logs WHERE dt = '2024-01-01'

SELECT * FROM events /*+ OPTIONS('scan.startup.mode' = 'latest') */

SELECT * FROM events /*+ OPTIONS('scan.startup.mode' = 'timestamp', 'scan.startup.timestamp' = '1678883047356') */ LIMIT 10

SELECT * FROM events /*+ OPTIONS('scan.startup.mode' = 'timestamp', 'scan.startup.timestamp' = '2023-12-09 23:09:12') */

SELECT * FROM events /*+ OPTIONS('scan.startup.mode' = 'timestamp') */

SELECT * FROM events /*+ OPTIONS('scan.startup.mode' = 'group-offsets') */

SELECT /*+ OPTIONS('scan.startup.mode' = 'earliest') */ * FROM events

SELECT * FROM events /*+ OPTIONS('fluss.scan.start-offsets' = '0:10,1:20') */

SELECT * FROM clicks

-- @set scan.startup.mode=latest
SELECT * FROM events

-- @reset
-- @set execution.runtime-mode=streaming
SELECT * FROM events

SELECT * FROM orders

SELECT * FROM orders WHERE order_id = 1

-- @reset
-- P6 primary-key table scans.
SELECT * FROM orders

SELECT item FROM sales WHERE dt = '2024-01-01'

SELECT * FROM orders /*+ OPTIONS('scan.startup.mode' = 'latest') */

SELECT * FROM orders /*+ OPTIONS('scan.startup.mode' = 'full') */

-- @set fluss.scan.max-rows=500
SELECT * FROM orders

-- @reset
-- P9 rejections and client-side filtering.
SELECT * FROM orders WHERE status = 'paid'

SELECT * FROM orders WHERE order_id > 5

SELECT * FROM orders WHERE order_id = 1 OR order_id = 2

SELECT * FROM kv2 WHERE k1 = 1

SELECT * FROM sales WHERE shop_id = 7

SELECT * FROM events WHERE id = 1

SELECT * FROM logs WHERE level > 2

SELECT * FROM orders /*+ OPTIONS('fluss.client-filter' = 'true') */ WHERE status = 'paid'

SELECT * FROM events /*+ OPTIONS('fluss.client-filter' = 'true') */ WHERE amount BETWEEN 1 AND 10 AND name NOT LIKE 'x%' LIMIT 3

-- @set fluss.client-filter=true
SELECT id FROM events WHERE id <> 3 AND NOT (name IS NULL)

SELECT id FROM events WHERE id + 1 = 3

-- @reset
-- Rejected forms.
SELECT * FROM orders JOIN events ON orders.order_id = events.id

SELECT * FROM orders, events

SELECT * FROM (SELECT * FROM orders) t

SELECT * FROM orders WHERE order_id IN (SELECT id FROM events)

SELECT status, COUNT(*) FROM orders GROUP BY status

SELECT COUNT(*) FROM orders HAVING COUNT(*) > 1

SELECT DISTINCT status FROM orders

SELECT * FROM orders ORDER BY order_id

SELECT * FROM orders UNION SELECT * FROM orders

SELECT * FROM orders FOR UPDATE

SELECT * FROM orders FOR SYSTEM_TIME AS OF TIMESTAMP '2024-01-01 00:00:00'

SELECT * FROM `orders$lake`

SELECT * FROM `orders$lake$snapshots`

SELECT * FROM `orders$bogus`

SELECT * FROM information_schema.tables

-- Flink's || is CONCAT, which the query engine computes.
SELECT status || 'x' FROM orders WHERE order_id = 1

SELECT UPPER(status) FROM orders WHERE order_id = 1

SELECT nosuch FROM orders WHERE order_id = 1

SELECT * FROM nosuch

SELECT * FROM events /*+ OPTIONS('no.such.key' = '1') */

-- Stored table defaults do not turn PK reads into startup-mode reads.
SELECT * FROM pk_latest WHERE id = 1

SELECT * FROM pk_latest

SELECT * FROM `pk_latest$changelog`

-- @set scan.startup.mode=latest
SELECT * FROM pk_latest WHERE id = 1

-- @reset
-- A bucket key that is not a prefix of the primary key gives no prefix lookup.
SELECT * FROM kv3 WHERE b = 1

SELECT * FROM kv3 WHERE a = 1 AND b = 2 AND c = 3

-- information_schema views (materialized client-side).
SELECT * FROM information_schema.schemata

SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME LIMIT 10

SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'fluss' AND table_name = ? ORDER BY ordinal_position DESC

SELECT * FROM information_schema.partitions WHERE TABLE_NAME LIKE 's%'

SELECT * FROM information_schema.views

SELECT COUNT(*) FROM information_schema.tables

SELECT TABLE_SCHEMA FROM information_schema.tables GROUP BY TABLE_SCHEMA

-- Stop positions and streaming.
SELECT * FROM events /*+ OPTIONS('scan.stop.timestamp' = '2024-01-02 00:00:00') */

SELECT * FROM `orders$changelog` /*+ OPTIONS('scan.startup.mode' = 'timestamp', 'scan.startup.timestamp' = '1700000000000', 'scan.stop.timestamp' = '1700000360000') */

SELECT * FROM events /*+ OPTIONS('scan.stop.timestamp' = 'yesterday') */

SELECT * FROM events /*+ OPTIONS('fluss.scan.bounded' = 'false') */

-- OR of key equalities: the IN list or tuple IN it means.
SELECT * FROM orders WHERE order_id = 1 OR order_id = ? OR 3 = order_id

SELECT v FROM kv2 WHERE (k1 = 1 AND k2 = 'a') OR (k2 = 'b' AND k1 = 2)

SELECT * FROM logs WHERE dt = '2024-01-01' OR dt = '2024-01-02'

SELECT * FROM orders WHERE order_id = 1 OR status = 'paid'

SELECT v FROM kv2 WHERE (k1 = 1 AND k2 = 'a') OR k1 = 2

SELECT v FROM kv2 WHERE (k1 = 1 AND k1 = 2) OR (k1 = 3 AND k2 = 'c')

SELECT * FROM orders WHERE order_id = 1 OR order_id = NULL

-- Conditions on constants: TRUE ones are left out, a FALSE one gives no
-- rows (BI tools learn a query's columns with WHERE 1 = 0).
SELECT * FROM orders WHERE 1 = 0

SELECT customer FROM orders WHERE order_id = ? AND 'a' > 'b' ORDER BY customer

SELECT COUNT(*) FROM events WHERE FALSE

SELECT * FROM events WHERE NULL

SELECT * FROM orders WHERE 1 = 1 AND order_id = 5

SELECT * FROM events WHERE TRUE AND 2.0 >= 2

SELECT * FROM events WHERE 1 = 'a'
