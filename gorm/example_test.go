package flussgorm_test

import (
	"database/sql"
	"fmt"
	"time"

	"gorm.io/gorm"

	flussgorm "github.com/gofluss/fluss/gorm"
)

// Open a GORM handle on a Fluss database and migrate a model.
func ExampleOpen() {
	db, err := gorm.Open(flussgorm.Open("fluss://127.0.0.1:9123/shop"), &gorm.Config{})
	if err != nil {
		panic(err)
	}
	type Order struct {
		ID     int64 `gorm:"primaryKey"`
		Region string
		Amount float64 `gorm:"precision:12;scale:2"`
	}
	if err := db.AutoMigrate(&Order{}); err != nil {
		panic(err)
	}
}

// Reading a model by key: the statement GORM sends is a point lookup that
// the driver orders and limits in the client.
func Example_first() {
	pool, _ := sql.Open("fluss", "fluss://127.0.0.1:9123/shop")
	db, _ := gorm.Open(flussgorm.New(flussgorm.Config{Conn: pool}), &gorm.Config{DryRun: true, DisableAutomaticPing: true})
	type Visit struct {
		ID int64 `gorm:"primaryKey"`
		At time.Time
	}
	var v Visit
	fmt.Println(db.First(&v, 7).Statement.SQL.String())
	// Output: SELECT * FROM `visits` WHERE `visits`.`id` = ? ORDER BY `visits`.`id` LIMIT ?
}

// Sale is partitioned by day; its bucket key is the shop, and the table
// creates its daily partitions itself.
type Sale struct {
	Day    string `gorm:"primaryKey;partitionKey"`
	ShopID int64  `gorm:"primaryKey;bucketKey;autoIncrement:false"`
	Item   string `gorm:"primaryKey"`
	Qty    int32
}

// FlussTable sets the bucket count and table options of Sale.
func (Sale) FlussTable() flussgorm.TableOptions {
	return flussgorm.TableOptions{Buckets: 4, Options: map[string]string{
		"table.auto-partition.enabled":   "true",
		"table.auto-partition.time-unit": "DAY",
	}}
}

// Table options come from field tags and a FlussTable method.
func ExampleTableOptions() {
	db, err := gorm.Open(flussgorm.Open("fluss://127.0.0.1:9123/shop"), &gorm.Config{})
	if err != nil {
		panic(err)
	}
	// CREATE TABLE `sales` (...) PARTITIONED BY (`day`)
	// WITH ('bucket.key' = 'shop_id', 'bucket.num' = '4', 'table.auto-partition.enabled' = 'true', ...)
	if err := db.AutoMigrate(&Sale{}); err != nil {
		panic(err)
	}
}
