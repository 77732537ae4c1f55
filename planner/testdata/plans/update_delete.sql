-- UPDATE and DELETE.
UPDATE orders SET status = 'paid' WHERE order_id = 1

UPDATE orders SET status = ?, amount = ? WHERE order_id = ?

UPDATE orders o SET o.status = 'x' WHERE o.order_id = 1

UPDATE kv2 SET w = 'z' WHERE k1 = 1 AND k2 = 'a'

UPDATE kv2 SET w = 'z' WHERE k1 = 1

UPDATE kv2 SET w = 'z' WHERE k1 = 1 AND k2 = 'a' AND w = 'q'

UPDATE kv2 SET w = 'z' WHERE k1 = 1 AND k2 IN ('a', 'b')

UPDATE kv2 SET w = 'z'

UPDATE kv2 SET v = NULL WHERE k1 = 1 AND k2 = 'a'

UPDATE orders SET amount = amount + 1 WHERE order_id = 1

UPDATE orders SET order_id = 2 WHERE order_id = 1

UPDATE orders SET nosuch = 2 WHERE order_id = 1

UPDATE events SET name = 'x' WHERE id = 1

UPDATE first_t SET v = 'x' WHERE id = 1

UPDATE agg_t SET total = 1 WHERE id = 1

UPDATE dict SET uid = 1 WHERE name = 'a'

UPDATE orders SET status = 'x' WHERE order_id = 1 LIMIT 1

DELETE FROM orders WHERE order_id = 1

DELETE FROM orders WHERE order_id = ?

DELETE FROM orders WHERE order_id IN (1, 2, 3)

DELETE FROM kv2 WHERE k1 IN (1, 2) AND k2 = 'a'

DELETE FROM kv2 WHERE (k1, k2) IN ((1, 'a'), (2, 'b'))

DELETE FROM kv2 WHERE k1 = 1

DELETE FROM orders WHERE order_id > 5

DELETE FROM orders WHERE order_id = 1 OR order_id = 2

DELETE FROM orders WHERE status = 'x'

DELETE FROM orders

DELETE FROM events WHERE id = 1

DELETE FROM first_t WHERE id = 1

DELETE FROM nodel WHERE id = 1

DELETE FROM orders /*+ OPTIONS('sink.ignore-delete' = 'true') */ WHERE order_id = 1

DELETE FROM sales WHERE dt = '2024-01-01' AND shop_id = 1 AND item = 'x'

DELETE FROM orders WHERE order_id = 1 LIMIT 1

-- Conditions beyond the key (ORM soft deletes, repeated key columns) are
-- checked on the looked-up row.

UPDATE orders SET status = 'gone' WHERE `orders`.`order_id` = 1 AND `orders`.`order_id` = 1 AND status IS NULL

DELETE FROM orders WHERE order_id IN (1, 2) AND status <> 'keep'

DELETE FROM orders WHERE order_id = 1 AND order_id = 2

DELETE FROM orders WHERE status = 'x'

DELETE FROM kv2 WHERE (k1 = 1 AND k2 = 'a') OR (k1 = 2 AND k2 = 'b')

DELETE FROM orders WHERE 1 = 1 AND order_id = 3

UPDATE orders SET status = 'shipped' WHERE order_id IN (1, 2, 3)

UPDATE orders SET status = ? WHERE order_id = ? OR order_id = ?

UPDATE kv2 SET w = 'x' WHERE k1 IN (1, 2)

-- SET of a NOT NULL column: no partial update (the server refuses it).
UPDATE kv2 SET v = 5 WHERE k1 = 1 AND k2 = 'a'
