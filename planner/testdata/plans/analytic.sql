-- Without an engine, what Fluss cannot serve is refused.
SELECT name, COUNT(*) FROM events GROUP BY name

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
