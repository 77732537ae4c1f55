CREATE CATALOG fluss_catalog WITH (
  'type' = 'fluss',
  'bootstrap.servers' = 'fluss-server-1:9123'
);
USE CATALOG fluss_catalog;
CREATE DATABASE my_db;
USE my_db;
-- Flink refuses to drop the current database
USE fluss;
DROP DATABASE my_db;
CREATE DATABASE IF NOT EXISTS sales COMMENT 'sales data' WITH ('owner' = 'bi');
DROP DATABASE IF EXISTS sales CASCADE;
ALTER DATABASE sales SET ('owner' = 'finance');
ALTER DATABASE sales RESET ('owner');
ALTER DATABASE sales SET COMMENT 'renamed';
SHOW DATABASES;
DESCRIBE DATABASE sales;
