SET 'execution.runtime-mode' = 'batch';
SET 'sql-client.execution.result-mode' = 'tableau';
SET execution.runtime-mode = batch;
SET;
RESET 'execution.runtime-mode';
RESET;
SET NAMES utf8mb4;
SET autocommit = 1;
SET @@session.sql_mode = 'ANSI';
BEGIN;
COMMIT;
ROLLBACK;
FLUSH TABLE orders;
CALL sys.add_acl(
  resource => 'CLUSTER',
  permission => 'ALLOW',
  principal => 'User:Alice',
  operation => 'READ',
  host => '*'
);
CALL sys.get_cluster_configs(
  config_keys => 'kv.rocksdb.shared-rate-limiter.bytes-per-sec', 'datalake.format'
);
CALL fluss_catalog.sys.get_cluster_configs();
CALL sys.add_server_tag('0', 'PERMANENT_OFFLINE');
TRUNCATE TABLE orders;
CREATE VIEW v AS SELECT * FROM orders;
