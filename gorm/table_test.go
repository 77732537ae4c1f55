package flussgorm

import (
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// offlineDB is a GORM handle whose pool never connects: enough to build
// statements.
func offlineDB(t *testing.T) *gorm.DB {
	t.Helper()
	pool, err := sql.Open("fluss", "fluss://127.0.0.1:1/")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	db, err := gorm.Open(New(Config{Conn: pool}), &gorm.Config{DisableAutomaticPing: true})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

type sale struct {
	Day    string `gorm:"primaryKey;partitionKey"`
	ShopID int64  `gorm:"primaryKey;bucketKey;autoIncrement:false"`
	Item   string `gorm:"primaryKey;comment:what was sold"`
	Qty    uint16 `gorm:"not null"`
	Price  string `gorm:"type:decimal(10,2)"`
	Code   string `gorm:"size:3;fixed"`
	Small  int8
	Ratio  float32
	Count  uint
	When   *time.Time `gorm:"precision:3"`
	Tags   []byte
	Ignore string `gorm:"-"`
}

func (sale) FlussTable() TableOptions {
	return TableOptions{Buckets: 4, Options: map[string]string{"table.auto-partition.enabled": "true", "table.auto-partition.time-unit": "DAY"}}
}

type nulls struct {
	ID  int64 `gorm:"autoIncrement:false"`
	B   sql.NullBool
	I16 sql.NullInt16
	I32 sql.NullInt32
	I64 sql.NullInt64
	F   sql.NullFloat64
	S   sql.NullString
	T   sql.NullTime
	P   *int32
}

type counter struct {
	Name string `gorm:"primaryKey"`
	Seq  int64  `gorm:"autoIncrement"`
}

type plain struct {
	ID   int64
	Note string `gorm:"default:x"`
}

type indexed struct {
	ID   int64
	Name string `gorm:"uniqueIndex"`
}

func TestCreateTableSQL(t *testing.T) {
	db := offlineDB(t)
	tests := []struct {
		model any
		want  string
	}{
		{&sale{}, "CREATE TABLE `sales` (`day` STRING NOT NULL, `shop_id` BIGINT NOT NULL, `item` STRING NOT NULL COMMENT 'what was sold', " +
			"`qty` INT NOT NULL, `price` DECIMAL(10,2), `code` CHAR(3), `small` TINYINT, `ratio` FLOAT, `count` BIGINT, `when` TIMESTAMP_LTZ(3), `tags` BYTES, " +
			"PRIMARY KEY (`day`, `shop_id`, `item`) NOT ENFORCED) PARTITIONED BY (`day`) " +
			"WITH ('bucket.key' = 'shop_id', 'bucket.num' = '4', 'table.auto-partition.enabled' = 'true', 'table.auto-partition.time-unit' = 'DAY')"},
		{&nulls{}, "CREATE TABLE `nulls` (`id` BIGINT NOT NULL, `b` BOOLEAN, `i16` SMALLINT, `i32` INT, `i64` BIGINT, `f` DOUBLE, `s` STRING, `t` TIMESTAMP_LTZ(6), `p` INT, PRIMARY KEY (`id`) NOT ENFORCED)"},
		{&counter{}, "CREATE TABLE `counters` (`name` STRING NOT NULL, `seq` BIGINT, PRIMARY KEY (`name`) NOT ENFORCED) WITH ('auto-increment.fields' = 'seq')"},
		{&plain{}, "flussgorm: not supported by Fluss: column note: default x: Fluss columns have no default values; set the value in Go"},
		{&indexed{}, "CREATE TABLE `indexeds` (`id` BIGINT NOT NULL, `name` STRING, PRIMARY KEY (`id`) NOT ENFORCED)"},
	}
	m := db.Migrator().(Migrator)
	for _, tc := range tests {
		var got string
		err := m.RunWithValue(tc.model, func(stmt *gorm.Statement) error {
			var err error
			got, err = m.createTableSQL(stmt, tc.model)
			return err
		})
		if err != nil {
			if !errors.Is(err, ErrUnsupported) {
				t.Errorf("%T: %v is not ErrUnsupported", tc.model, err)
			}
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%T:\n got %s\nwant %s", tc.model, got, tc.want)
		}
	}
}

func TestQuoteAndBind(t *testing.T) {
	db := offlineDB(t)
	stmt := db.Session(&gorm.Session{DryRun: true}).Where("`a`.`b` = ?", 1).Find(&[]sale{}).Statement
	if got, want := stmt.SQL.String(), "SELECT * FROM `sales` WHERE `a`.`b` = ?"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	stmt = db.Session(&gorm.Session{DryRun: true}).Limit(2).Offset(1).Find(&[]sale{}).Statement
	if got, want := stmt.SQL.String(), "SELECT * FROM `sales` LIMIT ? OFFSET ?"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if err := db.Session(&gorm.Session{DryRun: true}).Offset(1).Find(&[]sale{}).Error; !errors.Is(err, ErrUnsupported) {
		t.Errorf("Offset without Limit: %v", err)
	}
	if got, want := db.Statement.Quote("db.t`x"), "`db`.`t``x`"; got != want {
		t.Errorf("Quote: got %s, want %s", got, want)
	}
}

func TestOnConflict(t *testing.T) {
	db := offlineDB(t).Session(&gorm.Session{DryRun: true, SkipDefaultTransaction: true})
	row := &sale{Day: "d", ShopID: 1, Item: "i"}
	stmt := db.Clauses(clause.OnConflict{UpdateAll: true}).Create(row).Statement
	if sql := stmt.SQL.String(); strings.Contains(sql, "CONFLICT") || stmt.Error != nil {
		t.Errorf("UpdateAll: %s, %v", sql, stmt.Error)
	}
	for _, oc := range []clause.OnConflict{{DoNothing: true}, {DoUpdates: clause.AssignmentColumns([]string{"qty"})}} {
		if err := db.Clauses(oc).Create(row).Error; !errors.Is(err, ErrUnsupported) {
			t.Errorf("%+v: got %v, want ErrUnsupported", oc, err)
		}
	}
}
