ALTER TABLE my_table ADD user_email STRING COMMENT 'User email address';
ALTER TABLE MyTable ADD (
    user_email STRING COMMENT 'User email address',
    order_quantity INT
);
ALTER TABLE my_table ADD WATERMARK FOR ts AS ts - INTERVAL '10' SECOND;
ALTER TABLE my_table DROP WATERMARK;
ALTER TABLE my_table MODIFY WATERMARK FOR ts AS ts - INTERVAL '20' SECOND;
ALTER TABLE my_table SET ('table.datalake.enabled' = 'true');
ALTER TABLE my_table SET ('table.datalake.freshness' = '5min');
ALTER TABLE my_table RESET ('table.datalake.enabled');
ALTER TABLE my_part_pk_table ADD PARTITION (dt = '2025-03-05');
ALTER TABLE my_multi_fields_part_log_table ADD PARTITION (dt = '2025-03-05', nation = 'US');
ALTER TABLE my_part_pk_table DROP PARTITION (dt = '2025-03-05');
ALTER TABLE my_multi_fields_part_log_table DROP PARTITION (dt = '2025-03-05', nation = 'US');
ALTER TABLE sensor_data SET ('table.statistics.columns' = '*');
ALTER TABLE t ADD IF NOT EXISTS PARTITION (dt = '2025-03-06');
ALTER TABLE t DROP IF EXISTS PARTITION (dt = '2025-03-06');
ALTER TABLE t SET TBLPROPERTIES ('table.log.ttl' = '3d');
ALTER TABLE t UNSET TBLPROPERTIES ('table.log.ttl');
ALTER TABLE t DROP COLUMN c;
ALTER TABLE t RENAME COLUMN a TO b;
ALTER TABLE t MODIFY c BIGINT COMMENT 'wider';
