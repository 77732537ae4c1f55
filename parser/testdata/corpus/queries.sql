-- Analytic queries: window functions, WITH, Flink time functions and the
-- SQL that Grafana's Flight SQL macros expand to.
SELECT * FROM (
  SELECT region, product, qty,
         ROW_NUMBER() OVER (PARTITION BY region ORDER BY qty DESC) AS rn
  FROM sales
) t
WHERE rn <= 3;
WITH ranked AS (
  SELECT region, qty, RANK() OVER (PARTITION BY region ORDER BY qty DESC NULLS LAST) AS r
  FROM sales
), top3 (region, qty) AS (
  SELECT region, qty FROM ranked WHERE r <= ?
)
SELECT region, SUM(qty) FROM top3 GROUP BY region ORDER BY region NULLS FIRST;
SELECT id,
       SUM(qty) OVER (PARTITION BY region ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS moving,
       AVG(qty) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) AS hourly,
       COUNT(*) OVER () AS total,
       LAG(qty, 1, 0) OVER (PARTITION BY region ORDER BY ts) AS prev,
       LEAD(qty) OVER (PARTITION BY region ORDER BY ts) AS following_qty,
       FIRST_VALUE(qty) OVER (PARTITION BY region ORDER BY ts ROWS UNBOUNDED PRECEDING) AS first_qty,
       LAST_VALUE(qty) OVER (PARTITION BY region ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last_qty,
       DENSE_RANK() OVER (ORDER BY price DESC) AS price_rank
FROM sales;
SELECT * FROM (WITH recent AS (SELECT * FROM sales WHERE ts > ?) SELECT region FROM recent) AS r;
SELECT FLOOR(ts TO HOUR) AS h, CEIL(ts TO DAY) AS d, COUNT(*)
FROM sales
WHERE ts >= TIMESTAMP '2026-03-01 00:00:00' - INTERVAL '1' DAY
GROUP BY FLOOR(ts TO HOUR), CEIL(ts TO DAY);
SELECT EXTRACT(YEAR FROM ts), DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss'), POSITION('a' IN product), SUBSTRING(product FROM 2 FOR 3)
FROM sales
ORDER BY ts DESC NULLS FIRST
LIMIT 10 OFFSET 5;
select date_bin(interval '10 second', ts, timestamp '1970-01-01T00:00:00Z') as ts_binned, sum(qty)
from sales
where ts >= '2023-01-01T00:00:00Z' AND ts <= '2023-01-01T00:10:00Z'
group by 1
order by 1;
select datepart('year', ts) as ts_year,datepart('month', ts) as ts_month,datepart('day', ts) as ts_day,datepart('hour', ts) as ts_hour, count(*)
from sales
where ts >= cast('2023-01-01T00:00:00Z' as timestamp) and ts <= cast('2023-01-01T00:10:00Z' as timestamp)
group by 1, 2, 3, 4;
