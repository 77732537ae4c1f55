package flussgorm_test

import (
	"reflect"
	"testing"

	"github.com/gofluss/fluss/internal/clustertest"
)

// DailySale is a partitioned primary-key table whose bucket key (shop) is
// a prefix of the key after the partition column.
type DailySale struct {
	Day    string `gorm:"primaryKey;partitionKey"`
	ShopID int64  `gorm:"primaryKey;bucketKey;autoIncrement:false"`
	Item   string `gorm:"primaryKey"`
	Qty    int32
	Price  string `gorm:"type:DECIMAL(10,2)"` // exact decimals as strings
}

// TestPartitionedTable: partition and bucket keys from tags, writes into
// an added partition, and reads by partition + bucket key (a prefix
// lookup) and by full key.
func TestPartitionedTable(t *testing.T) {
	db, _ := openGorm(t)
	autoMigrate(t, db, &DailySale{})
	cts, err := db.Migrator().ColumnTypes(&DailySale{})
	if err != nil || len(cts) != 5 {
		t.Fatalf("ColumnTypes: %d, %v", len(cts), err)
	}
	add := "ALTER TABLE daily_sales ADD PARTITION (day = '2024-05-01')"
	if err := clustertest.ExecWithLeaders(t, add, func(q string) error { return db.Exec(q).Error }); err != nil {
		t.Fatal(err)
	}
	rows := []DailySale{{"2024-05-01", 7, "apple", 3, "1.50"}, {"2024-05-01", 7, "pear", 1, "12345678.99"}, {"2024-05-01", 8, "fig", 2, "-0.01"}}
	if err := db.Create(&rows).Error; err != nil {
		t.Fatal(err)
	}
	var got []DailySale
	if err := db.Where(&DailySale{Day: "2024-05-01", ShopID: 7}).Order("item DESC").Find(&got).Error; err != nil {
		t.Fatal(err)
	}
	if want := []DailySale{rows[1], rows[0]}; !reflect.DeepEqual(got, want) {
		t.Errorf("prefix lookup: %+v, want %+v", got, want)
	}
	var one DailySale
	if err := db.Where("day = ? AND shop_id = ? AND item = ?", "2024-05-01", 8, "fig").Take(&one).Error; err != nil || one != rows[2] {
		t.Errorf("by key: %+v, %v", one, err)
	}
}
