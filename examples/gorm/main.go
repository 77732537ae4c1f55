// Command gorm shows a small service model on Fluss through GORM and the
// flussgorm dialector: users in a primary-key table, their activity in an
// append-only log table. It migrates both, creates, reads a user by key,
// updates and deletes one, and lists the most recent events.
//
// It is a module of its own (like the dialector), so the driver module
// does not depend on GORM.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/gofluss/fluss/examples"
	flussgorm "github.com/gofluss/fluss/gorm"
)

// User is a primary-key table: writes upsert by ID, reads by ID are point
// lookups. Fluss does not generate keys, so the service sets ID.
type User struct {
	ID        int64 `gorm:"primaryKey"`
	Name      string
	Email     *string // nullable
	Plan      string
	CreatedAt time.Time // TIMESTAMP_LTZ, set by GORM
	UpdatedAt time.Time
}

// Event is an append-only log table (no primary key).
type Event struct {
	UserID int64
	Kind   string
	At     time.Time
}

// FlussTable gives the log table its bucket count.
func (Event) FlussTable() flussgorm.TableOptions {
	return flussgorm.TableOptions{Buckets: 2, Comment: "user activity"}
}

func main() { examples.Main("gorm_example", 2*time.Minute, run) }

func run(ctx context.Context, dsn, dbName string, out io.Writer) error {
	if err := examples.Recreate(ctx, dsn, dbName); err != nil {
		return err
	}

	cfg, err := examples.InDatabase(dsn, dbName)
	if err != nil {
		return err
	}
	db, err := gorm.Open(flussgorm.Open(cfg.FormatDSN()), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		return err
	}
	if sqlDB, err := db.DB(); err == nil {
		defer sqlDB.Close()
	}
	db = db.WithContext(ctx)
	if err := db.AutoMigrate(&User{}, &Event{}); err != nil {
		return err
	}

	email := "ada@example.com"
	users := []User{{ID: 1, Name: "ada", Email: &email, Plan: "free"}, {ID: 2, Name: "bo", Plan: "free"}}
	if err := db.Create(&users).Error; err != nil {
		return err
	}
	t0 := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	events := []Event{
		{UserID: 1, Kind: "signup", At: t0},
		{UserID: 2, Kind: "signup", At: t0.Add(time.Minute)},
		{UserID: 1, Kind: "upgrade", At: t0.Add(2 * time.Minute)},
		{UserID: 2, Kind: "delete", At: t0.Add(3 * time.Minute)},
	}
	if err := db.Create(&events).Error; err != nil {
		return err
	}

	// Read by key, update part of the row, read again.
	var u User
	if err := db.First(&u, 1).Error; err != nil {
		return err
	}
	fmt.Fprintf(out, "user %d: %s <%s> plan=%s\n", u.ID, u.Name, *u.Email, u.Plan)
	if err := db.Model(&u).Updates(User{Plan: "pro"}).Error; err != nil {
		return err
	}
	if err := db.First(&u, 1).Error; err != nil {
		return err
	}
	fmt.Fprintf(out, "user %d after update: plan=%s\n", u.ID, u.Plan)

	// Delete by key; the row is gone.
	if err := db.Delete(&User{}, 2).Error; err != nil {
		return err
	}
	err = db.First(&User{}, 2).Error
	fmt.Fprintf(out, "user 2 after delete: not found=%v\n", errors.Is(err, gorm.ErrRecordNotFound))

	// The most recent events: a bounded scan of the log, ordered and
	// limited in the client.
	var recent []Event
	if err := db.Order("at DESC").Limit(3).Find(&recent).Error; err != nil {
		return err
	}
	for _, e := range recent {
		fmt.Fprintf(out, "event %s user=%d %s\n", e.At.UTC().Format("15:04"), e.UserID, e.Kind)
	}
	return nil
}
