-- Flink SQL queries (left) and the DuckDB SQL the engine runs (golden).
-- Blocks are separated by blank lines; the tables are those of
-- translate_duckdb_test.go, which runs every translation in DuckDB.

-- Identifiers are double-quoted; backtick names are names.
SELECT `region`, s.qty AS `the "qty"` FROM sales AS s WHERE s.qty > 3

-- ? and $n are DuckDB's $n; an expression without an alias keeps its Flink text as its name.
SELECT UPPER(region), qty + ? FROM sales WHERE id = ? OR id IN (?, 7)

SELECT region FROM sales WHERE qty = $2 AND id = $1

-- ORDER BY spells out Flink's NULL order: first ascending, last descending.
SELECT region, qty FROM sales ORDER BY region, qty DESC, id ASC NULLS LAST, product DESC NULLS FIRST LIMIT 10 OFFSET 5

SELECT region, COUNT(*), SUM(qty), COUNT(DISTINCT product) FROM sales GROUP BY region HAVING COUNT(*) > 1 ORDER BY 2 DESC

-- Top-N with ROW_NUMBER in a subquery, and in a WITH query.
SELECT * FROM (SELECT region, product, qty, ROW_NUMBER() OVER (PARTITION BY region ORDER BY qty DESC) AS rn FROM sales) t WHERE rn <= 3

WITH ranked AS (
  SELECT region, qty, ROW_NUMBER() OVER (PARTITION BY region ORDER BY qty DESC, id) AS rn FROM sales
), top3 (r, q) AS (SELECT region, qty FROM ranked WHERE rn <= 3)
SELECT r, SUM(q) AS total FROM top3 GROUP BY r

SELECT id,
  SUM(qty) OVER (PARTITION BY region ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS moving,
  AVG(qty) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) AS hourly,
  COUNT(*) OVER () AS n,
  LAG(qty, 1, 0) OVER (PARTITION BY region ORDER BY ts) AS prev,
  LEAD(qty) OVER (ORDER BY ts ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS nxt,
  FIRST_VALUE(qty) OVER (PARTITION BY region ORDER BY ts) AS first_qty,
  LAST_VALUE(qty) OVER (PARTITION BY region ORDER BY ts ROWS UNBOUNDED PRECEDING) AS last_qty,
  RANK() OVER (ORDER BY qty DESC NULLS FIRST) AS r,
  DENSE_RANK() OVER (ORDER BY price) AS dr,
  NTILE(4) OVER (ORDER BY id) AS quartile
FROM sales

-- Joins, subqueries, UNION.
SELECT p.category, SUM(s.qty) FROM sales s JOIN products p ON s.product = p.product LEFT JOIN products q ON q.product = p.product GROUP BY p.category

SELECT * FROM sales JOIN products USING (product)

SELECT region FROM sales WHERE product IN (SELECT product FROM products WHERE category = 'pome') AND EXISTS (SELECT 1 FROM products) AND qty > (SELECT MIN(qty) FROM sales)

SELECT region FROM sales UNION SELECT category FROM products UNION ALL SELECT 'x' ORDER BY 1 LIMIT 3

SELECT * FROM (SELECT region FROM sales) x, products

WITH a AS (SELECT region FROM sales) SELECT * FROM a UNION ALL SELECT * FROM a

SELECT * FROM (WITH a AS (SELECT qty FROM sales) SELECT MAX(qty) AS m FROM a) t

-- Operators and precedence.
SELECT (qty + 1) * 2, qty - (id - 1), -qty, - -1, qty / 2, qty DIV 2, qty % 3, NOT (qty > 1 OR id < 2) AND region IS NOT NULL FROM sales

SELECT * FROM sales WHERE (qty > 1) IS TRUE AND region <=> NULL AND qty BETWEEN 1 AND 5 AND product NOT LIKE 'a!%' ESCAPE '!' AND region REGEXP '^e'

SELECT CASE WHEN qty > 5 THEN 'big' WHEN qty IS NULL THEN NULL ELSE 'small' END, CASE region WHEN 'eu' THEN 1 ELSE 0 END FROM sales

-- Literals, constructors and casts to Flink types.
SELECT 1, 1.50, 1.5e3, 'it''s', x'0aFF', TRUE, NULL, DATE '2024-01-02', TIME '10:00:00', TIMESTAMP '2024-01-02 10:00:00.123', TIMESTAMP_LTZ '2024-01-02 10:00:00'

SELECT ARRAY[1, 2], MAP['a', 1, 'b', 2], ROW(1, 'a') FROM sales

SELECT CAST(qty AS STRING), CAST(product AS BYTES), CAST(qty AS TINYINT), CAST(qty AS SMALLINT), CAST(qty AS INT), CAST(qty AS BIGINT), CAST(qty AS FLOAT), CAST(qty AS DOUBLE), CAST(qty AS DECIMAL(10, 2)), CAST(qty AS BOOLEAN) FROM sales

SELECT CAST(ts AS TIMESTAMP(0)), CAST(ts AS TIMESTAMP(3)), CAST(ts AS TIMESTAMP), CAST(ts AS TIMESTAMP(9)), CAST(ts AS TIMESTAMP_LTZ(3)), CAST(ts AS DATE), CAST(ts AS TIME), TRY_CAST(region AS INT), CAST(region AS VARCHAR(10)), CAST(region AS CHAR(3)), CAST(region AS BYTES) FROM sales

SELECT CAST(tags AS ARRAY<STRING>), CAST(attrs AS MAP<STRING, STRING>), CAST(ROW(1, 'a') AS ROW<a INT, b STRING>) FROM sales

-- Intervals: Flink's, and Grafana's unit-less ones.
SELECT ts + INTERVAL '5' MINUTE, ts - INTERVAL '1' HOUR, ts + INTERVAL '10 second', ts + INTERVAL '1 02:30:00.5' DAY TO SECOND, ts + INTERVAL '-1-6' YEAR TO MONTH, ts + INTERVAL '2 03' DAY TO HOUR FROM sales

-- Equal expressions get equal names, which DuckDB keeps apart.
SELECT COUNT(*), COUNT(*), qty, qty FROM sales GROUP BY qty
