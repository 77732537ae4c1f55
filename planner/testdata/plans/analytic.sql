-- Without an engine, what Fluss cannot serve is refused.
SELECT name, COUNT(*) FROM events GROUP BY name

SELECT name, ROW_NUMBER() OVER (PARTITION BY name ORDER BY amount DESC) FROM events

SELECT name FROM events ORDER BY SUM(amount) OVER (PARTITION BY name)

WITH a AS (SELECT name FROM events) SELECT * FROM a

-- @engine
SELECT name, COUNT(*), SUM(amount) FROM events GROUP BY name

-- A filter on any column: the engine filters; only the used columns are read.
SELECT COUNT(*) FROM events WHERE amount > 5 AND name = 'a'

-- Partition pruning from a partition-key predicate.
SELECT level, COUNT(*) FROM logs WHERE dt = '2024-01-01' AND level > 2 GROUP BY level

-- A full primary key is a lookup.
SELECT k1, UPPER(w) FROM kv2 WHERE k1 = ? AND k2 IN ('a', 'b')

-- LIMIT with nothing between it and the rows is pushed down.
SELECT UPPER(name) FROM events LIMIT 5

-- A join on a primary-key table's whole key is a lookup join.
SELECT a.tags, SUM(s.qty) FROM sales s JOIN agg_t a ON s.shop_id = a.id GROUP BY a.tags

-- A table with the WAL changelog image keeps no row counts: its lookup
-- join never turns to a scan.
SELECT e.name, w.v FROM events e JOIN wal_t w ON e.id = w.id

-- A LEFT JOIN may look up its right side; a join on a non-key column scans both.
SELECT s.item, a.tags FROM sales s LEFT JOIN agg_t a ON a.id = s.shop_id

SELECT e.name, s.item FROM events e JOIN sales s ON e.name = s.item

SELECT name FROM events UNION SELECT item FROM sales

SELECT 1 + 1, UPPER('x')

-- An unbounded read cannot feed the engine.
SELECT name, COUNT(*) FROM events /*+ OPTIONS('fluss.scan.bounded' = 'false') */ GROUP BY name

SELECT COUNT(*) FROM no_such_table WHERE x > 1

-- The probe's own filters narrow the keys a lookup join looks up.
SELECT a.tags, COUNT(*) FROM sales s JOIN agg_t a ON s.shop_id = a.id WHERE s.qty > 5 AND s.item = ? GROUP BY a.tags

-- Top-N: a window function in a subquery, filtered outside it.
SELECT * FROM (SELECT name, amount, ROW_NUMBER() OVER (PARTITION BY name ORDER BY amount DESC) AS rn FROM events) t WHERE rn <= 3

-- A window function sees every row: LIMIT is not pushed down.
SELECT name, ROW_NUMBER() OVER (ORDER BY amount ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM events LIMIT 5

-- WITH queries are not Fluss tables; one named like a table (sales) hides it.
WITH sales AS (SELECT name, amount FROM events WHERE amount > ?), top AS (SELECT name FROM sales WHERE amount > 10) SELECT * FROM top

-- Out of its WITH, the name is the table's again.
SELECT * FROM (WITH sales AS (SELECT name FROM events) SELECT * FROM sales) s JOIN sales ON s.name = sales.item

WITH recent AS (SELECT * FROM logs WHERE dt = '2024-01-01') SELECT level, COUNT(*) FROM recent GROUP BY level UNION ALL SELECT level, 0 FROM logs WHERE dt = '2024-01-02'

-- Flink's time bucketing, and Grafana's date_bin.
SELECT FLOOR(ts TO HOUR) AS h, COUNT(*) FROM events GROUP BY FLOOR(ts TO HOUR) ORDER BY h DESC NULLS FIRST

select date_bin(interval '60 second', ts, timestamp '1970-01-01T00:00:00Z') as ts_binned, sum(amount) from events where ts >= '2023-01-01T00:00:00Z' AND ts <= '2023-01-01T00:10:00Z' group by 1 order by 1
