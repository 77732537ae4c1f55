-- Virtual tables $changelog and $binlog.
SELECT * FROM `orders$changelog`

SELECT _change_type, order_id FROM `orders$changelog` LIMIT 10

SELECT * FROM `events$changelog` /*+ OPTIONS('scan.startup.mode' = 'latest') */

SELECT * FROM `logs$changelog` WHERE dt = '2024-01-01' AND _log_offset >= 100

SELECT * FROM `orders$changelog` WHERE _commit_timestamp > TIMESTAMP '2024-01-01 00:00:00'

SELECT * FROM `orders$changelog` WHERE status = 'paid'

SELECT * FROM `orders$changelog` /*+ OPTIONS('fluss.client-filter' = 'true') */ WHERE status = 'paid'

SELECT * FROM `orders$changelog` /*+ OPTIONS('scan.startup.mode' = 'timestamp', 'scan.startup.timestamp' = '2024-01-01 00:00:00') */

SELECT COUNT(*) FROM `orders$changelog`

SELECT * FROM `orders$binlog`

SELECT _change_type, `before`, `after` FROM `sales$binlog` LIMIT 5

SELECT * FROM `events$binlog`

SELECT * FROM `wal_t$binlog`

-- @set execution.runtime-mode=streaming
SELECT * FROM `orders$changelog`
