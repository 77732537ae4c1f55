package flussgorm_test

import (
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	flussgorm "github.com/gofluss/fluss/gorm"
	"github.com/gofluss/fluss/internal/clustertest"
)

// These tests run GORM against the real cluster of clustertest.

// User is a primary-key table with a field of most kinds.
type User struct {
	ID        int64 `gorm:"primaryKey"`
	Name      string
	Email     *string
	Age       int32
	Balance   float64 `gorm:"precision:12;scale:2"`
	Avatar    []byte
	Active    bool
	Score     sql.NullInt64
	Nick      sql.NullString
	Born      time.Time `gorm:"ntz;precision:3"`
	CreatedAt time.Time
	UpdatedAt time.Time
	// Hooked is set by BeforeCreate.
	Hooked string
}

func (u *User) BeforeCreate(*gorm.DB) error {
	u.Hooked = "before:" + u.Name
	return nil
}

// Event is a log table: no primary key.
type Event struct {
	Seq    int64
	UserID int64
	Kind   string
	At     time.Time
}

func (Event) FlussTable() flussgorm.TableOptions {
	return flussgorm.TableOptions{Buckets: 2, Comment: "user events"}
}

// openGorm creates a fresh database and opens GORM on it.
func openGorm(t *testing.T) (*gorm.DB, string) {
	t.Helper()
	addr := clustertest.Bootstrap(t)
	raw, err := sql.Open("fluss", "fluss://"+addr+"/")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	name := fmt.Sprintf("gorm_%d_%04d", time.Now().Unix()%100000, rand.IntN(10000))
	if _, err := raw.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Exec("DROP DATABASE IF EXISTS " + name + " CASCADE") })
	db, err := gorm.Open(flussgorm.Open("fluss://"+addr+"/"+name), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if s, err := db.DB(); err == nil {
			s.Close()
		}
	})
	return db, name
}

// autoMigrate creates the models' tables as clustertest.CreateWithLeaders
// does: a table the coordinator missed is dropped and created again.
func autoMigrate(t *testing.T, db *gorm.DB, models ...any) {
	t.Helper()
	err := clustertest.CreateWithLeaders(t, func() error { return db.AutoMigrate(models...) },
		func() error { return db.Migrator().DropTable(models...) })
	if err != nil {
		t.Fatalf("AutoMigrate: %v", err)
	}
}

func TestMigrator(t *testing.T) {
	db, name := openGorm(t)
	m := db.Migrator()
	if got := m.CurrentDatabase(); got != name {
		t.Errorf("CurrentDatabase = %q, want %q", got, name)
	}
	autoMigrate(t, db, &User{}, &Event{})
	if !m.HasTable(&User{}) || !m.HasTable("events") || m.HasTable("nope") {
		t.Fatal("HasTable is wrong")
	}
	tables, err := m.GetTables()
	if err != nil || strings.Join(tables, ",") != "events,users" {
		t.Fatalf("GetTables = %v, %v", tables, err)
	}
	if !m.HasColumn(&User{}, "Email") || !m.HasColumn(&User{}, "created_at") || m.HasColumn(&User{}, "nope") {
		t.Fatal("HasColumn is wrong")
	}
	cts, err := m.ColumnTypes(&User{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cts {
		typ, _ := c.ColumnType()
		pk, _ := c.PrimaryKey()
		null, _ := c.Nullable()
		got = append(got, fmt.Sprintf("%s %s pk=%v null=%v", c.Name(), typ, pk, null))
	}
	want := []string{"id BIGINT pk=true null=false", "name STRING pk=false null=true", "email STRING pk=false null=true",
		"age INT pk=false null=true", "balance DECIMAL(12, 2) pk=false null=true", "avatar BYTES pk=false null=true",
		"active BOOLEAN pk=false null=true", "score BIGINT pk=false null=true", "nick STRING pk=false null=true",
		"born TIMESTAMP(3) pk=false null=true", "created_at TIMESTAMP_LTZ(6) pk=false null=true",
		"updated_at TIMESTAMP_LTZ(6) pk=false null=true", "hooked STRING pk=false null=true"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ColumnTypes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// A second AutoMigrate of a grown model adds the new column.
	type UserV2 struct {
		User
		Country string
	}
	if err := db.Table("users").AutoMigrate(&UserV2{}); err != nil {
		t.Fatal(err)
	}
	if !db.Table("users").Migrator().HasColumn(&UserV2{}, "country") {
		t.Fatal("AutoMigrate did not add column country")
	}
	if err := m.AutoMigrate(&User{}); err != nil {
		t.Fatalf("AutoMigrate of an unchanged model: %v", err)
	}

	// What Fluss cannot do is refused and says so.
	type Indexed struct {
		ID   int64  `gorm:"primaryKey"`
		Name string `gorm:"index"`
	}
	type Retyped struct {
		ID   int64 `gorm:"primaryKey"`
		Name int64
	}
	for what, err := range map[string]error{
		"drop column":   m.DropColumn(&User{}, "name"),
		"alter column":  m.AlterColumn(&User{}, "name"),
		"rename column": m.RenameColumn(&User{}, "name", "n"),
		"create index":  m.CreateIndex(&User{}, "idx"),
		"retyped":       db.Table("users").AutoMigrate(&Retyped{}),
	} {
		if !errors.Is(err, flussgorm.ErrUnsupported) {
			t.Errorf("%s: got %v, want ErrUnsupported", what, err)
		}
	}
	// Index tags are skipped (with a warning): gorm.Model has one.
	autoMigrate(t, db, &Indexed{})
	if !m.HasTable(&Indexed{}) {
		t.Error("AutoMigrate of a model with an index made no table")
	}
	if err := m.DropTable(&Event{}); err != nil || m.HasTable(&Event{}) {
		t.Fatalf("DropTable: %v", err)
	}
}
