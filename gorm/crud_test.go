package flussgorm_test

import (
	"database/sql"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	flussgorm "github.com/gofluss/fluss/gorm"
	"github.com/gofluss/fluss/internal/clustertest"
)

func ids(us []User) []int64 {
	out := make([]int64, len(us))
	for i, u := range us {
		out[i] = u.ID
	}
	return out
}

func TestCRUD(t *testing.T) {
	db, _ := openGorm(t)
	autoMigrate(t, db, &User{})
	email := "ann@example.com"
	born := time.Date(1990, 4, 5, 6, 7, 8, 9_000_000, time.UTC)
	ann := User{ID: 1, Name: "ann", Email: &email, Age: 30, Balance: 12.5, Avatar: []byte{1, 2}, Active: true,
		Score: sql.NullInt64{Int64: 7, Valid: true}, Born: born}
	if err := db.Create(&ann).Error; err != nil {
		t.Fatal(err)
	}
	if ann.ID != 1 || ann.Hooked != "before:ann" || ann.CreatedAt.IsZero() {
		t.Fatalf("after Create: %+v", ann)
	}
	batch := []User{{ID: 2, Name: "bob", Age: 20}, {ID: 3, Name: "cid", Age: 40}, {ID: 4, Name: "dan", Age: 25}}
	if res := db.Create(&batch); res.Error != nil || res.RowsAffected != 3 {
		t.Fatalf("Create batch: %v, %d rows", res.Error, res.RowsAffected)
	}
	// Fluss generates no keys: a zero key is refused before anything is sent.
	if err := db.Create(&User{Name: "nokey"}).Error; err == nil || !strings.Contains(err.Error(), "does not generate primary keys") {
		t.Fatalf("Create with a zero key: %v", err)
	}

	// Reads by key, and over the whole table.
	var u User
	if err := db.First(&u, 1).Error; err != nil {
		t.Fatal(err)
	}
	if u.Name != "ann" || *u.Email != email || u.Age != 30 || u.Balance != 12.5 || !reflect.DeepEqual(u.Avatar, []byte{1, 2}) ||
		!u.Active || u.Score != (sql.NullInt64{Int64: 7, Valid: true}) || u.Nick.Valid || !u.Born.Equal(born) || u.Hooked != "before:ann" ||
		!u.CreatedAt.Equal(ann.CreatedAt.Truncate(time.Microsecond)) {
		t.Errorf("First(1) = %+v", u)
	}
	for what, q := range map[string]func(*User) error{
		"First": func(u *User) error { return db.First(u).Error },
		"Last":  func(u *User) error { return db.Last(u).Error },
		"Take":  func(u *User) error { return db.Take(u, "id = ?", 3).Error },
	} {
		var u User
		if err := q(&u); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		want := map[string]int64{"First": 1, "Last": 4, "Take": 3}[what]
		if u.ID != want {
			t.Errorf("%s: got id %d, want %d", what, u.ID, want)
		}
	}
	if err := db.First(&User{}, 99).Error; !errors.Is(err, gorm.ErrRecordNotFound) {
		t.Errorf("First of a missing key: %v, want ErrRecordNotFound", err)
	}

	var found []User
	if err := db.Order("age desc").Find(&found, []int64{4, 2, 3}).Error; err != nil || !reflect.DeepEqual(ids(found), []int64{3, 4, 2}) {
		t.Errorf("Find IN ordered by age desc: %v, %v", ids(found), err)
	}
	if err := db.Where(&User{ID: 2}).Find(&found).Error; err != nil || !reflect.DeepEqual(ids(found), []int64{2}) {
		t.Errorf("Where(struct): %v, %v", ids(found), err)
	}
	if err := db.Where(map[string]any{"id": []int64{1, 3}}).Order("id").Find(&found).Error; err != nil || !reflect.DeepEqual(ids(found), []int64{1, 3}) {
		t.Errorf("Where(map): %v, %v", ids(found), err)
	}
	if err := db.Order("id").Limit(2).Offset(1).Find(&found).Error; err != nil || !reflect.DeepEqual(ids(found), []int64{2, 3}) {
		t.Errorf("Order Limit Offset: %v, %v", ids(found), err)
	}
	if err := db.Limit(2).Find(&found).Error; err != nil || len(found) != 2 {
		t.Errorf("Limit(2): %d rows, %v", len(found), err)
	}
	byKeys := func(keys ...int64) func(*gorm.DB) *gorm.DB {
		return func(d *gorm.DB) *gorm.DB { return d.Where("id IN ?", keys) }
	}
	if err := db.Scopes(byKeys(4, 1)).Order("name").Find(&found).Error; err != nil || !reflect.DeepEqual(ids(found), []int64{1, 4}) {
		t.Errorf("Scopes: %v, %v", ids(found), err)
	}
	var n int64
	if err := db.Model(&User{}).Count(&n).Error; err != nil || n != 4 {
		t.Errorf("Count = %d, %v", n, err)
	}
	// A condition Fluss cannot serve is refused and names the clause.
	if err := db.Where("name = ?", "ann").Find(&found).Error; err == nil || !strings.Contains(err.Error(), "WHERE") {
		t.Errorf("Where on a non-key column: %v", err)
	}

	// Updates: partial by key; Save of a changed row and of a new one.
	if err := db.Model(&User{ID: 2}).Updates(User{Name: "bobby", Age: 21}).Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Model(&User{ID: 3}).Update("nick", "c").Error; err != nil {
		t.Fatal(err)
	}
	var b, c User
	db.First(&b, 2)
	db.First(&c, 3)
	if b.Name != "bobby" || b.Age != 21 || c.Nick.String != "c" || c.Name != "cid" {
		t.Errorf("after Updates: %+v / %+v", b, c)
	}
	// A batch update of a list of keys, one of them missing.
	if res := db.Model(&User{}).Where("id IN ?", []int64{2, 3, 99}).Update("age", 30); res.Error != nil || res.RowsAffected != 2 {
		t.Fatalf("Update of keys 2, 3 and 99: %v, %d rows", res.Error, res.RowsAffected)
	}
	db.First(&c, 3)
	if c.Age != 30 || c.Name != "cid" {
		t.Errorf("after the batch Update: %+v", c)
	}
	b.Age = 22
	if err := db.Save(&b).Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Save(&User{ID: 5, Name: "eve"}).Error; err != nil {
		t.Fatal(err)
	}
	db.First(&b, 2)
	var e User
	if err := db.First(&e, 5).Error; err != nil || b.Age != 22 || e.Name != "eve" {
		t.Errorf("after Save: %+v / %+v, %v", b, e, err)
	}

	// Delete by key.
	if res := db.Delete(&User{}, 4); res.Error != nil || res.RowsAffected != 1 {
		t.Fatalf("Delete: %v, %d rows", res.Error, res.RowsAffected)
	}
	if err := db.First(&User{}, 4).Error; !errors.Is(err, gorm.ErrRecordNotFound) {
		t.Errorf("after Delete: %v", err)
	}
}

// TestTransactions shows the write-batch semantics: writes queue until
// Commit; a failed callback rolls back what is still queued.
func TestTransactions(t *testing.T) {
	db, _ := openGorm(t)
	autoMigrate(t, db, &User{})
	err := db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&User{ID: 10, Name: "t1"}).Error; err != nil {
			return err
		}
		return tx.Create(&User{ID: 11, Name: "t2"}).Error
	})
	if err != nil {
		t.Fatal(err)
	}
	var us []User
	if err := db.Find(&us, []int64{10, 11}).Error; err != nil || len(us) != 2 {
		t.Fatalf("after commit: %v, %v", ids(us), err)
	}
	boom := errors.New("boom")
	err = db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&User{ID: 12, Name: "t3"}).Error; err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("rolled back transaction: %v", err)
	}
	if err := db.First(&User{}, 12).Error; !errors.Is(err, gorm.ErrRecordNotFound) {
		t.Fatalf("row of a rolled-back batch: %v", err)
	}
}

// TestLogTable reads an append-only table: First/Last/Take order in the
// client, and "the last n events" is ORDER BY ... DESC LIMIT n.
func TestLogTable(t *testing.T) {
	db, _ := openGorm(t)
	autoMigrate(t, db, &Event{})
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var evs []Event
	for i := int64(1); i <= 6; i++ {
		evs = append(evs, Event{Seq: i, UserID: i % 2, Kind: "k", At: at.Add(time.Duration(i) * time.Minute)})
	}
	if err := db.Create(&evs).Error; err != nil {
		t.Fatal(err)
	}
	var first, last, any Event
	if err := db.First(&first).Error; err != nil || first.Seq != 1 {
		t.Errorf("First: %+v, %v", first, err)
	}
	if err := db.Last(&last).Error; err != nil || last.Seq != 6 {
		t.Errorf("Last: %+v, %v", last, err)
	}
	if err := db.Take(&any).Error; err != nil || any.Seq == 0 {
		t.Errorf("Take: %+v, %v", any, err)
	}
	var recent []Event
	if err := db.Order("at desc").Limit(3).Find(&recent).Error; err != nil || len(recent) != 3 || recent[0].Seq != 6 || recent[2].Seq != 4 {
		t.Errorf("recent: %+v, %v", recent, err)
	}
	var n int64
	if err := db.Model(&Event{}).Count(&n).Error; err != nil || n != 6 {
		t.Errorf("Count = %d, %v", n, err)
	}
}

// Tag is a dictionary: Fluss assigns UID when a name is first written.
type Tag struct {
	Name string `gorm:"primaryKey"`
	UID  int64  `gorm:"autoIncrement"`
	Note string
}

// TestAutoIncrement: the server fills a non-key auto-increment column and
// Create reads the values back; later writes keep them.
func TestAutoIncrement(t *testing.T) {
	db, _ := openGorm(t)
	autoMigrate(t, db, &Tag{})
	a := Tag{Name: "a", Note: "first"}
	if err := db.Create(&a).Error; err != nil {
		t.Fatal(err)
	}
	more := []Tag{{Name: "b"}, {Name: "c", UID: 99}}
	if err := db.Create(&more).Error; err != nil {
		t.Fatal(err)
	}
	if a.UID == 0 || more[0].UID == 0 || more[1].UID == 0 || more[1].UID == 99 || a.UID == more[0].UID || more[0].UID == more[1].UID {
		t.Fatalf("assigned ids: a=%d b=%d c=%d", a.UID, more[0].UID, more[1].UID)
	}
	a.Note = "changed"
	if err := db.Save(&a).Error; err != nil {
		t.Fatal(err)
	}
	var got Tag
	if err := db.First(&got, "name = ?", "a").Error; err != nil || got.UID != a.UID || got.Note != "changed" {
		t.Fatalf("after Save: %+v, %v (uid was %d)", got, err, a.UID)
	}
	// Inside a transaction the rows are written at Commit: nothing to read
	// back yet, but the server still assigns an id.
	d := Tag{Name: "d"}
	if err := db.Transaction(func(tx *gorm.DB) error { return tx.Create(&d).Error }); err != nil || d.UID != 0 {
		t.Fatalf("Create in a transaction: uid %d, %v", d.UID, err)
	}
	var dd Tag
	if err := db.First(&dd, "name = ?", "d").Error; err != nil || dd.UID == 0 {
		t.Fatalf("row created in a transaction: %+v, %v", dd, err)
	}
}

// Product embeds gorm.Model: an index on deleted_at (skipped) and soft
// deletes, which add deleted_at IS NULL to every statement.
type Product struct {
	gorm.Model
	Code  string
	Price uint
}

func TestSoftDelete(t *testing.T) {
	db, name := openGorm(t)
	autoMigrate(t, db, &Product{})
	ps := []Product{{Model: gorm.Model{ID: 1}, Code: "a", Price: 10}, {Model: gorm.Model{ID: 2}, Code: "b", Price: 20}}
	if err := db.Create(&ps).Error; err != nil {
		t.Fatal(err)
	}
	var p Product
	if err := db.First(&p, 1).Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Model(&p).Update("price", 11).Error; err != nil {
		t.Fatal(err)
	}
	if res := db.Delete(&p, 1); res.Error != nil || res.RowsAffected != 1 {
		t.Fatalf("soft Delete: %v, %d rows", res.Error, res.RowsAffected)
	}
	if err := db.First(&Product{}, 1).Error; !errors.Is(err, gorm.ErrRecordNotFound) {
		t.Errorf("First of a soft-deleted row: %v", err)
	}
	var gone Product
	if err := db.Unscoped().First(&gone, 1).Error; err != nil || gone.Price != 11 || !gone.DeletedAt.Valid {
		t.Errorf("Unscoped First: %+v, %v", gone, err)
	}
	// Listing without a key filters deleted_at in the client, which the
	// DSN has to allow.
	if err := db.Find(&ps).Error; err == nil || !strings.Contains(err.Error(), "fluss.client-filter") {
		t.Errorf("Find without client filtering: %v", err)
	}
	filtered, err := gorm.Open(flussgorm.Open("fluss://"+clustertest.Bootstrap(t)+"/"+name+"?fluss.client-filter=true"), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := filtered.Order("id").Find(&ps).Error; err != nil || len(ps) != 1 || ps[0].ID != 2 {
		t.Errorf("Find with client filtering: %+v, %v", ps, err)
	}
	if res := db.Unscoped().Delete(&Product{}, 1); res.Error != nil || res.RowsAffected != 1 {
		t.Fatalf("Unscoped Delete: %v, %d rows", res.Error, res.RowsAffected)
	}
	if err := db.Unscoped().First(&Product{}, 1).Error; !errors.Is(err, gorm.ErrRecordNotFound) {
		t.Errorf("after a hard delete: %v", err)
	}
}
