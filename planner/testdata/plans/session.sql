-- Session and catalog statements.
CREATE CATALOG fluss_catalog WITH ('type' = 'fluss', 'bootstrap.servers' = 'localhost:9123')

CREATE CATALOG pg WITH ('type' = 'jdbc')

USE CATALOG fluss_catalog

USE CATALOG other_catalog

USE my_db

USE fluss_catalog.my_db

USE other.my_db

SET 'execution.runtime-mode' = 'batch'

SET 'execution.runtime-mode' = 'micro-batch'

SET 'sql-client.execution.result-mode' = 'tableau'

SET 'scan.startup.mode' = 'earliest'

SET 'client.writer.acks' = 'all'

SET 'fluss.client-filter' = 'true'

SET 'fluss.client-filter' = 'yes'

SET 'fluss.scan.max-rows' = '-1'

SET 'fluss.no-such-option' = '1'

SET 'fluss.write.sync' = 'true'

SET 'fluss.write.sync' = 'false'

SET 'lookup.insert-if-not-exists' = 'true'

SET 'parallelism.default' = '4'

SET 'my.custom.key' = 'x'

SET

RESET 'scan.startup.mode'

RESET

RESET 'bogus'

SET NAMES utf8mb4

SET autocommit = 1

BEGIN

COMMIT

ROLLBACK

START TRANSACTION READ ONLY

FLUSH

FLUSH TABLE orders

CALL fluss_catalog.sys.get_cluster_configs(config_keys => ARRAY['kv.rocksdb.shared-rate-limiter.bytes-per-sec'])

CALL sys.add_acl('cluster', 'READ', principal => 'User:Bob')

CALL sys.no_such_proc()

CALL sys.add_acl('cluster.shop', 'ALLOW', 'User:alice', 'READ')

CALL sys.drop_acl(resource => 'cluster', permission => 'ALLOW', principal => 'User:alice', operation => 'READ', host => '*')

CALL sys.list_acl('cluster')

CALL sys.list_acl()

CALL sys.list_acl('cluster', resource => 'cluster')

CALL sys.list_acl('cluster', who => 'User:alice')

CALL sys.get_cluster_configs()

CALL sys.get_cluster_configs('a', 'b')

CALL sys.set_cluster_configs('kv.rocksdb.shared-rate-limiter.bytes-per-sec', '200MB', 'datalake.format', ?)

CALL sys.set_cluster_configs()

CALL sys.reset_cluster_configs(ARRAY['a', 'b'])

CALL sys.add_server_tag(tablet_servers => '0,1', server_tag => 'PERMANENT_OFFLINE')

CALL sys.remove_server_tag('0', 'PERMANENT_OFFLINE', 'extra')

CALL sys.rebalance('REPLICA_DISTRIBUTION,LEADER_DISTRIBUTION')

CALL sys.list_rebalance()

CALL sys.list_rebalance('r-1', 'r-2')

CALL sys.cancel_rebalance(rebalanceId => ?)

CALL SYS.DROP_KV_SNAPSHOT_LEASE('lease-1')

CALL sys.drop_kv_snapshot_lease(a.b)

EXPLAIN SELECT * FROM orders WHERE order_id = 1

EXPLAIN INSERT INTO events VALUES (1, 'a', 1.5, TIMESTAMP '2024-01-01 00:00:00')

EXECUTE STATEMENT SET BEGIN INSERT INTO events (id) VALUES (1); INSERT INTO orders (order_id, status) VALUES (2, 'new'); END

SELECT 1

SELECT 1 AS one, 'x', 2.50, -7, TRUE, NULL

SELECT VERSION()

SELECT DATABASE(), CURRENT_CATALOG

SELECT @@version

SELECT @@sql_mode

SELECT CAST(? AS BIGINT)

SELECT ?

SELECT NOW()

SET 'table.local-time-zone' = 'Asia/Shanghai'

RESET 'table.local-time-zone'

SELECT * FROM events /*+ OPTIONS('table.local-time-zone' = 'UTC') */

SELECT CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_DATE, CURRENT_TIME

SELECT CAST(5 AS STRING), CAST('12' AS INT), CAST('true' AS BOOLEAN), CAST(? AS VARCHAR)

-- @db analytics
SELECT DATABASE()

SET @@session.sql_mode = 'ANSI'

SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED
