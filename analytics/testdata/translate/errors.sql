-- What the engine does not run as Flink would is refused by name.

SELECT INITCAP(region) FROM sales

SELECT my_udf(region) FROM sales

SELECT db.f(region) FROM sales

SELECT ROW_NUMBER() FROM sales

SELECT UPPER(region) OVER () FROM sales

SELECT UPPER(DISTINCT region) FROM sales

SELECT SUBSTRING(region) FROM sales

SELECT DATE_FORMAT(ts, region) FROM sales

SELECT DATE_FORMAT(ts, 'yyyy-ww') FROM sales

SELECT DATE_FORMAT(ts, 'HH:mm ''x') FROM sales

SELECT TO_TIMESTAMP_LTZ(id, 6) FROM sales

SELECT EXTRACT(CENTURY FROM ts) FROM sales

SELECT ts + INTERVAL '1 02' DAY TO SECOND FROM sales

SELECT CAST(region AS SIGNED) FROM sales

SELECT @@version

SELECT region FROM sales FOR UPDATE

SELECT MATCH (region) AGAINST ('x') FROM sales

SELECT CAST(region AS BINARY(4)) FROM sales

SELECT CAST(ts AS DATETIME(3)) FROM sales

SELECT CAST(r AS ROW<a INT>) FROM sales
