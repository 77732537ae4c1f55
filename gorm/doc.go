// Package flussgorm is a GORM dialector for Apache Fluss, built on the
// fluss database/sql driver. It lives in a Go module of its own so that
// users of the driver alone do not inherit GORM.
//
//	db, err := gorm.Open(flussgorm.Open("fluss://127.0.0.1:9123/shop"), &gorm.Config{})
//
// # What Fluss serves
//
// Fluss stores log tables (append-only) and primary-key tables (upserts and
// deletes by key); it has no query engine. The dialector therefore maps
// GORM's calls onto what the fluss driver plans:
//
//   - Create inserts one row or a batch (one multi-row INSERT). Into a
//     primary-key table an INSERT is an upsert. Fluss does not generate
//     primary keys (its auto-increment columns cannot be keys), so a model
//     whose integer primary key is zero is refused before anything is sent;
//     set the key yourself. LastInsertId is never asked for. A field
//     outside the key tagged `gorm:"autoIncrement"` becomes a Fluss
//     auto-increment column: the server fills it when the row is first
//     written, the dialector never writes it, and Create reads the values
//     back by key once the rows are acknowledged (not inside a
//     transaction, whose rows are written at Commit).
//   - First, Last and Take by primary key are point lookups; on a whole
//     table (and on log tables) they are bounded scans ordered in the
//     client. Find serves conditions the driver serves: the full primary
//     key (equality or IN), partition keys, and, for other columns, only
//     with 'fluss.client-filter' enabled (DSN ?fluss.client-filter=true).
//     Anything else fails with the driver's error, which names the clause.
//   - Save, Updates and Update by primary key are partial updates; Delete
//     by primary key deletes. Count is served from table statistics.
//   - gorm.Model works: its deleted_at index is skipped, and the soft-delete
//     condition deleted_at IS NULL is checked on the row a key reads. Find
//     without a key condition then needs 'fluss.client-filter'.
//   - Offset needs a Limit; ON CONFLICT other than UpdateAll is refused,
//     since every INSERT into a primary-key table is an upsert.
//   - A missing row is gorm.ErrRecordNotFound.
//
// # Transactions
//
// GORM wraps every write in a transaction unless SkipDefaultTransaction is
// set. The driver's transactions are write batches: statements queue in the
// client and Commit sends them and waits for every acknowledgement. They
// are not atomic and not isolated: reads inside see only committed server
// state (so do Update and Save, which look the row up by key: a row created
// in the same transaction is not found yet), and Rollback cannot take back
// rows a large batch already sent.
//
// # Migrations
//
// AutoMigrate creates missing tables and adds missing columns (new columns
// must be nullable). The primary key comes from the model; partition and
// bucket keys from the field tags `gorm:"partitionKey"` and
// `gorm:"bucketKey"`; the bucket count, table options and comment from a
// model method FlussTable() TableOptions (see TableOptions). time.Time
// maps to TIMESTAMP_LTZ (an instant); the tag `gorm:"ntz"` makes it a
// TIMESTAMP without time zone. Index and foreign-key tags (gorm.Model's
// index on deleted_at, say) are skipped with a warning in the logger. What
// Fluss cannot do is refused with ErrUnsupported: dropping, renaming or
// altering columns, changing a column's type, creating indexes,
// constraints and views.
package flussgorm
