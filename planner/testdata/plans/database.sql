-- Databases.
CREATE DATABASE shop

CREATE DATABASE IF NOT EXISTS shop COMMENT 'the shop' WITH ('owner' = 'me')

CREATE DATABASE `bad name`

CREATE DATABASE __internal

CREATE DATABASE `my-db`

-- Names Fluss cannot hold are refused wherever they appear.
USE `no such/name`

SELECT * FROM `ddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd`.t

SELECT * FROM `a b`

DROP DATABASE shop

DROP DATABASE IF EXISTS shop CASCADE

DROP DATABASE shop RESTRICT

-- @db shop
DROP DATABASE shop

-- @reset
ALTER DATABASE shop SET ('owner' = 'you')

ALTER DATABASE shop RESET ('owner')

ALTER DATABASE shop SET COMMENT 'new comment'

SHOW DATABASES

SHOW DATABASES LIKE 'sh%'

DESCRIBE DATABASE shop

DROP DATABASE fluss
