-- Flink functions and the DuckDB expressions that compute the same.

-- CONCAT is NULL when an argument is; CONCAT_WS skips them in both.
SELECT CONCAT(region, '-', product), CONCAT(region, CAST(qty AS STRING)), CONCAT_WS('/', region, product) FROM sales

-- REGEXP_REPLACE replaces every match; $n becomes \n. REGEXP_EXTRACT is NULL without a match.
SELECT REGEXP_REPLACE(product, 'p(.)', '<$1>'), REGEXP_REPLACE(product, 'a', '\$'), REGEXP_EXTRACT(product, '(p)(l)', 2), REGEXP_EXTRACT(product, 'p'), REGEXP(product, '^a') FROM sales

SELECT SUBSTRING(product, 2), SUBSTRING(product FROM 2 FOR 3), SUBSTR(product, 1, 2), CHAR_LENGTH(product), CHARACTER_LENGTH(region), POSITION('p' IN product), LOCATE('p', product), LOCATE('p', product, qty + 1) FROM sales

SELECT UPPER(region), LOWER(region), TRIM(region), LTRIM(region), RTRIM(region), LPAD(region, 5, '*'), RPAD(region, 5, '*'), REPEAT(region, 2), REVERSE(region), REPLACE(region, 'e', 'E'), MD5(region), ASCII(region), CHR(65) FROM sales

SELECT IF(qty > 5, 'big', 'small'), IFNULL(region, '?'), NVL(region, '?'), COALESCE(region, product, '?'), NULLIF(region, 'eu'), GREATEST(qty, id, 3), LEAST(qty, 1) FROM sales

SELECT ABS(qty), MOD(qty, 3), ROUND(price, 1), ROUND(price), FLOOR(price), CEIL(price), CEILING(price), POWER(qty, 2), SQRT(qty), EXP(1), LN(qty), LOG(qty), LOG(2, qty), LOG10(qty), LOG2(qty), SIGN(qty), PI() FROM sales

SELECT COUNT(*), COUNT(qty), COUNT(DISTINCT region), SUM(qty), AVG(qty), AVG(DISTINCT qty), MIN(ts), MAX(price), STDDEV_POP(qty), STDDEV_SAMP(qty), VAR_POP(qty), VAR_SAMP(qty), LISTAGG(region), LISTAGG(DISTINCT region, ';'), FIRST_VALUE(region), LAST_VALUE(region) FROM sales

-- Time: FLOOR/CEIL TO (Flink's weeks start on Sunday), EXTRACT, DATE_FORMAT.
SELECT FLOOR(ts TO SECOND), FLOOR(ts TO MINUTE), FLOOR(ts TO HOUR), FLOOR(ts TO DAY), FLOOR(ts TO WEEK), FLOOR(ts TO MONTH), FLOOR(ts TO QUARTER), FLOOR(ts TO YEAR), CEIL(ts TO HOUR), CEIL(ts TO WEEK), CEIL(ts + INTERVAL '1' DAY TO MONTH) FROM sales

SELECT FLOOR(ts TO HOUR) AS h, COUNT(*) FROM sales GROUP BY FLOOR(ts TO HOUR) ORDER BY h

SELECT EXTRACT(YEAR FROM ts), EXTRACT(MONTH FROM ts), EXTRACT(DAY FROM ts), EXTRACT(HOUR FROM ts), EXTRACT(DOW FROM ts), EXTRACT(DOY FROM ts), EXTRACT(WEEK FROM ts), YEAR(ts), MONTH(ts), DAYOFMONTH(ts), DAYOFWEEK(ts), HOUR(ts), MINUTE(ts), SECOND(ts) FROM sales

SELECT DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss'), DATE_FORMAT(ts, 'yyyy/M/d H:m:s.SSS'), DATE_FORMAT(ts, 'EEE, dd MMM yyyy hh:mm a'), DATE_FORMAT(ts, '''week'' D ''of'' yy, 100%'), DATE_FORMAT('2024-01-02 03:04:05', 'HH') FROM sales

SELECT TO_TIMESTAMP('2024-01-02 03:04:05'), TO_TIMESTAMP('02/01/2024 03:04', 'dd/MM/yyyy HH:mm'), TO_DATE('2024-01-02'), TO_DATE('02.01.2024', 'dd.MM.yyyy'), TO_TIMESTAMP_LTZ(id, 3), TO_TIMESTAMP_LTZ(id, 0), TO_TIMESTAMP_LTZ(id) FROM sales

SELECT UNIX_TIMESTAMP(), UNIX_TIMESTAMP('2024-01-02 03:04:05'), UNIX_TIMESTAMP('2024/01/02', 'yyyy/MM/dd'), FROM_UNIXTIME(id), FROM_UNIXTIME(id, 'yyyy-MM-dd') FROM sales

SELECT CURRENT_TIMESTAMP, NOW(), LOCALTIMESTAMP, CURRENT_DATE, CURRENT_TIME FROM sales

-- Grafana's Flight SQL macros: $__dateBin(ts), $__timeFilter(ts), $__timeGroupAlias(ts, hour), $__timeFrom().
select date_bin(interval '10 second', ts, timestamp '1970-01-01T00:00:00Z') as ts_binned, sum(qty) from sales where ts >= '2023-01-01T00:00:00Z' AND ts <= '2023-01-01T00:10:00Z' group by 1 order by 1

select datepart('year', ts) as ts_year,datepart('month', ts) as ts_month,datepart('day', ts) as ts_day,datepart('hour', ts) as ts_hour, count(*) from sales where ts >= cast('2023-01-01T00:00:00Z' as timestamp) group by 1, 2, 3, 4

SELECT date_bin(INTERVAL '15' MINUTE, ts) AS bucket, COUNT(*) FROM sales GROUP BY date_bin(INTERVAL '15' MINUTE, ts)
