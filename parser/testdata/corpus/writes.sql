INSERT INTO pk_table VALUES
    (1, 'Alice', 'us-east'),
    (2, 'Bob',   'eu-west'),
    (3, 'Carol', 'ap-south');
INSERT INTO log_table
VALUES (1, 'Customer1', 'IVhzIApeRb ot,c,E', 15, '25-989-741-2988', 711.56, 'BUILDING', 'comment1'),
       (2, 'Customer2', 'XSTf4,NCwDVaWNe6tEgvwfmRchLXak', 13, '23-768-687-3665', 121.65, 'AUTOMOBILE', 'comment2');
INSERT INTO log_table
SELECT * FROM source;
INSERT INTO pk_table (shop_id, user_id, num_orders)
SELECT shop_id, user_id, num_orders FROM source;
DELETE FROM pk_table WHERE shop_id = 10000 AND user_id = 123456;
UPDATE pk_table SET total_amount = 2 WHERE shop_id = 10000 AND user_id = 123456;
INSERT INTO product_stats VALUES
    (1, 23.0, 15, TIMESTAMP '2024-01-01 10:00:00'),
    -- Same primary key - triggers aggregation
    (1, 30.2, 20, TIMESTAMP '2024-01-01 11:00:00');
INSERT INTO test_last_value VALUES
    (1, CAST(NULL AS STRING), TIMESTAMP '2024-01-01 12:00:00');
INSERT INTO test_first_value_ignore_nulls VALUES
    (1, CAST(NULL AS STRING), CAST(NULL AS TIMESTAMP(3)));
INSERT INTO user_visits VALUES
    (1, rb_build(ARRAY[1, 2])),
    (1, rb_build(ARRAY[2, 3]));
INSERT INTO session_interactions VALUES (1, x'0101000000000000');
INSERT INTO T(k, v1, v2) VALUES (1, 1.0, 't1');
INSERT INTO VERSIONED (a, b, ts) VALUES (1, 'v4', CAST(null as BIGINT));
INSERT INTO uid_mapping (user_id) VALUES
  ('user1'), ('user2'), ('user3'), ('user4'), ('user5');
INSERT INTO t /*+ OPTIONS('sink.ignore-delete' = 'true') */ VALUES (?, ?, MAP['a', 1, 'b', 2]);
UPSERT INTO pk_table (shop_id, user_id, num_orders) VALUES ($1, $2, $3);
REPLACE INTO pk_table (shop_id, user_id) VALUES (:shop, :user);
INSERT INTO part_t PARTITION (dt = '2025-01-01') VALUES (1, 'x');
DELETE FROM T WHERE k = 2;
UPDATE T SET v1 = 4.0 WHERE k = 2;
