-- ORDER BY, LIMIT and OFFSET on bounded reads, sorted in the client (Sort).

SELECT * FROM orders WHERE order_id = ? ORDER BY `orders`.`order_id` LIMIT 1

SELECT customer FROM orders WHERE order_id IN (3, 1, 2) ORDER BY amount DESC, order_id

SELECT customer AS c, status FROM orders WHERE order_id IN (1, 2) ORDER BY c LIMIT 1 OFFSET 1

SELECT customer, status FROM orders WHERE order_id IN (1, 2) ORDER BY 2 DESC

SELECT * FROM orders ORDER BY order_id DESC LIMIT 5

SELECT * FROM orders ORDER BY order_id LIMIT ? OFFSET ?

SELECT * FROM events ORDER BY id LIMIT 10

SELECT name FROM events ORDER BY ts DESC, id

SELECT * FROM logs WHERE dt = '2024-01-01' ORDER BY level

SELECT * FROM sales WHERE dt = '2024-01-01' AND shop_id = 7 ORDER BY item DESC LIMIT 3

SELECT _log_offset, order_id FROM orders$changelog ORDER BY _log_offset DESC LIMIT 2

-- NULLS FIRST ascending and NULLS LAST descending are the client's (and Flink's) order.
SELECT name FROM events ORDER BY name NULLS FIRST, ts DESC NULLS LAST

-- The other order is the engine's.
SELECT name FROM events ORDER BY name NULLS LAST

SELECT name FROM events ORDER BY ts DESC NULLS FIRST

-- @set fluss.scan.max-rows=50
SELECT * FROM events ORDER BY amount

-- @reset
-- Refused: expressions, positions out of range, COUNT(*), streaming, no FROM.

SELECT * FROM orders WHERE order_id = 1 ORDER BY amount + 1

SELECT customer FROM orders WHERE order_id = 1 ORDER BY 3

SELECT * FROM orders WHERE order_id = 1 ORDER BY nope

SELECT COUNT(*) FROM orders ORDER BY order_id

SELECT 1 ORDER BY 1

-- @set execution.runtime-mode=streaming
SELECT * FROM events ORDER BY id

-- @reset
-- Key IN lists in any column order.

SELECT * FROM kv2 WHERE (k2, k1) IN (('a', 1), ('b', 2))

SELECT * FROM kv2 WHERE k2 IN ('a', 'b') AND k1 = 1

SELECT * FROM kv2 WHERE k2 = ? AND k1 IN (?, ?) ORDER BY k1 DESC

-- ORM habits: double-quoted identifiers, INSERT ... RETURNING.

SELECT "order_id" FROM "orders" WHERE "order_id" = 1

INSERT INTO orders (order_id, customer) VALUES (1, 'a') RETURNING order_id
