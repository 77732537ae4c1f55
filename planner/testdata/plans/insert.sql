-- INSERT / UPSERT / REPLACE.
INSERT INTO events VALUES (1, 'a', 1.5, TIMESTAMP '2024-01-01 12:00:00.123'), (2, NULL, -3, '2024-01-02 00:00:00')

INSERT INTO events (id, name) VALUES (?, ?)

INSERT INTO events (id, amount) VALUES (:id, :amount)

INSERT INTO events VALUES ($2, $1, NULL, NULL)

INSERT INTO logs (dt, level) VALUES ('2024-01-01', 1)

INSERT INTO logs VALUES ('2024-01-01', NULL, 1)

INSERT INTO logs PARTITION (dt = '2024-01-01') VALUES ('hello', 3)

INSERT INTO events VALUES (1, 'a')

INSERT INTO events (id, nosuch) VALUES (1, 2)

INSERT INTO events (id, id) VALUES (1, 2)

INSERT INTO events VALUES ('one', 'a', 1.5, NULL)

INSERT INTO events VALUES (1 + 1, 'a', 1.5, NULL)

INSERT INTO events (id) VALUES (NOW())

INSERT INTO events VALUES (1, 'a', 1.5, NOW()), (2, 'b', 2.5, CURRENT_TIMESTAMP)

INSERT INTO events (id, ts) VALUES (1, LOCALTIMESTAMP)

INSERT INTO events (id, ts) VALUES (1, CURRENT_DATE)

INSERT INTO events VALUES (CAST('7' AS BIGINT), CAST(5 AS STRING), CAST('-2.5' AS DOUBLE), CAST('2024-01-01 10:00:00' AS TIMESTAMP(3)))

INSERT INTO events (id, name, amount) VALUES (CAST(1.75 AS INT), CAST(TRUE AS VARCHAR(10)), CAST(-3 AS DECIMAL(5, 2)))

INSERT INTO events (id) VALUES (CAST(300 AS TINYINT))

INSERT INTO events (id) VALUES (CAST('seven' AS BIGINT))

INSERT INTO events (id, name) VALUES (CAST('7' AS BIGINT), CAST(DATE '2024-01-02' AS STRING))

INSERT INTO events SELECT * FROM events

INSERT INTO orders VALUES (1, 'ann', 12.5, 'new', TIMESTAMP '2024-01-01 10:00:00')

INSERT INTO orders VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)

INSERT INTO orders (order_id, status) VALUES (1, 'paid')

INSERT INTO orders (status) VALUES ('paid')

INSERT INTO kv2 (k1, w) VALUES (1, 'x')

INSERT INTO kv2 (k1, k2, w) VALUES (1, 'a', 'x')

INSERT INTO kv2 (k1, k2, v) VALUES (1, 'a', 5)

INSERT INTO kv2 VALUES (1, 'a', NULL, 'w')

UPSERT INTO orders (order_id, status) VALUES (1, 'paid')

REPLACE INTO orders VALUES (1, 'ann', 12.5, 'new', NULL)

UPSERT INTO events VALUES (1, 'a', 1.5, NULL)

REPLACE INTO events VALUES (1, 'a', 1.5, NULL)

INSERT INTO orders VALUES (1, 'a', 1, 'b', NULL) ON DUPLICATE KEY UPDATE status = 'x'

INSERT IGNORE INTO orders VALUES (1, 'a', 1, 'b', NULL)

INSERT OVERWRITE orders VALUES (1, 'a', 1, 'b', NULL)

INSERT INTO first_t (id) VALUES (1)

INSERT INTO first_t VALUES (1, 'v')

INSERT INTO agg_t (id, total) VALUES (1, 10)

INSERT INTO dict (name, note) VALUES ('a', 'n')

INSERT INTO dict VALUES ('a', NULL, 'n')

INSERT INTO dict VALUES ('a', 'n')

INSERT INTO dict (name, uid) VALUES ('a', 5)

INSERT INTO dict VALUES ('a', 5, 'n')

INSERT INTO sales VALUES ('2024-01-01', 7, 'apple', 3, 0.5)

INSERT INTO sales PARTITION (dt = '2024-01-01') (shop_id, item, qty) VALUES (7, 'apple', 3)

INSERT INTO types_t VALUES (1, TRUE, -128, 32767, 9007199254740993, 1.5, 2.5e10, 'abc', 'str', x'0102', 'bytes', 123.45,
  DATE '2024-02-29', TIME '12:34:56.789', TIMESTAMP '2024-01-01 00:00:00.123456', TIMESTAMP '2024-01-01 00:00:00',
  ARRAY[1, 2, NULL], MAP['a', 1, 'b', 2], ROW(1, 'y'))

INSERT INTO types_t (id, ti) VALUES (1, 128)

INSERT INTO types_t (id, c) VALUES (1, 'abcd')

INSERT INTO types_t (id, dec) VALUES (1, 12345.6)

INSERT INTO types_t (id, dt) VALUES (1, '2024-13-01')

INSERT INTO types_t (id, b) VALUES (1, 1)

INSERT INTO types_t (id, arr) VALUES (1, 'x')

INSERT INTO types_t (id, r) VALUES (1, ROW(1))

INSERT INTO types_t (id, dec, ltz) VALUES (1, CAST('1.5' AS DECIMAL(5, 2)), CAST(? AS TIMESTAMP_LTZ(3)))

INSERT INTO orders /*+ OPTIONS('client.writer.acks' = '1') */ VALUES (1, 'a', 1, 'b', NULL)

INSERT INTO orders /*+ OPTIONS('fluss.write.sync' = 'false') */ VALUES (1, 'a', 1, 'b', NULL)

INSERT INTO orders /*+ OPTIONS('fluss.merge-mode' = 'sometimes') */ VALUES (1, 'a', 1, 'b', NULL)

INSERT INTO orders /*+ OPTIONS('fluss.merge-mode' = 'overwrite') */ (order_id, status) VALUES (1, 'b')

INSERT INTO orders /*+ OPTIONS('bogus.key' = '1') */ VALUES (1, 'a', 1, 'b', NULL)

INSERT INTO `orders$changelog` VALUES (1)

INSERT INTO nosuch VALUES (1)

INSERT INTO types_t (id, dec) VALUES (1, 1.555)

INSERT INTO types_t (id, arr) VALUES (1, ARRAY['x'])

INSERT INTO types_t (id, m) VALUES (1, MAP[NULL, 1])
