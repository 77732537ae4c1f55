SELECT * FROM my_table;
SELECT * FROM my_table /*+ OPTIONS('scan.startup.mode' = 'latest') */;
SELECT `c_name` FROM `log_table`;
SELECT * FROM `log_partitioned_table` WHERE `c_nationkey` = 'US';
SELECT * FROM sensor_data WHERE temperature > 30.0 AND location = 'warehouse-A';
SELECT _change_type, _log_offset, order_id, amount
FROM orders$changelog
/*+ OPTIONS(
  'scan.startup.mode' = 'timestamp',
  'scan.startup.timestamp' = '1705312200000'
) */
ORDER BY _log_offset;
SELECT _change_type, `before`, `after`
FROM orders$binlog
WHERE `after`.order_id = 1001
LIMIT 100;
SELECT * FROM pk_table /*+ OPTIONS('client.scanner.kv.batch-strategy' = 'server-scan') */;
SELECT * FROM log_table LIMIT 10;
SELECT * FROM pk_table WHERE c_custkey = 1;
SELECT COUNT(*) FROM log_table;
SELECT * FROM log_table
/*+ OPTIONS('scan.startup.mode' = 'timestamp',
'scan.startup.timestamp' = '2023-12-09 23:09:12') */;
SELECT order_id, item_id FROM log_table WHERE dt > '2023-01-01';
SELECT * FROM log_table$changelog;
SELECT _change_type, _log_offset, order_id, amount
FROM orders$changelog
/*+ OPTIONS(
  'scan.startup.mode' = 'timestamp',
  'scan.startup.timestamp' = '1705312200000'
) */
WHERE _commit_timestamp < TO_TIMESTAMP_LTZ(1705398600000, 3)
ORDER BY _log_offset
LIMIT 100;
SELECT * FROM fluss_catalog.my_db.orders WHERE o_orderkey = ?;
SELECT * FROM T$lake$snapshots;
SELECT * FROM kv_table WHERE key = 'a' AND value IS NOT NULL;
SELECT * FROM t WHERE (k1, k2) IN ((1, 'a'), (2, 'b')) AND d BETWEEN DATE '2024-01-01' AND DATE '2024-12-31';
SELECT user_id, rb_to_array(visit_bitmap) AS visited_pages
FROM user_visits
WHERE user_id = 1;
SELECT
  ods.country,
  ods.uid,
  dim.uid_int32
FROM ods_events AS ods
JOIN uid_mapping /*+ OPTIONS('lookup.insert-if-not-exists' = 'true') */
  FOR SYSTEM_TIME AS OF ods.proctime AS dim
  ON dim.uid = ods.uid;
