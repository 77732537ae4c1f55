package flussrpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// liDictTable creates a dictionary table: name STRING primary key, uid an
// auto-increment BIGINT, note a nullable STRING that inserts leave NULL.
func liDictTable(t *testing.T, c *flussrpc.Client, db string) *flussrpc.Table {
	t.Helper()
	cols := []schema.Column{
		schema.NewColumn("name", schema.String()),
		schema.NewColumn("uid", schema.BigInt()),
		schema.NewColumn("note", schema.String()),
	}
	s, err := schema.NewSchema(cols, []string{"name"}, []string{"uid"})
	if err != nil {
		t.Fatal(err)
	}
	return createTable(t, c, db, uniqueName("dict"), schema.TableDescriptor{Schema: s, BucketCount: intPtr(3)})
}

// liInsertLookuper returns an insert-if-not-exists lookuper or fails.
func liInsertLookuper(t *testing.T, tbl *flussrpc.Table) *flussrpc.Lookuper {
	t.Helper()
	lk, err := tbl.NewLookuper(flussrpc.LookupOptions{InsertIfNotExists: true})
	if err != nil {
		t.Fatal(err)
	}
	return lk
}

// liUID looks name up with lk, which must find a row of name with a
// non-NULL uid and a NULL note, and returns the uid.
func liUID(ctx context.Context, lk *flussrpc.Lookuper, name string) (int64, error) {
	row, found, err := lk.Lookup(ctx, []any{name})
	switch {
	case err != nil:
		return 0, fmt.Errorf("lookup %q: %w", name, err)
	case !found:
		return 0, fmt.Errorf("lookup %q: not found", name)
	case row[0] != name || row[2] != nil:
		return 0, fmt.Errorf("lookup %q: row %v, want the key and a NULL note", name, row)
	}
	uid, ok := row[1].(int64)
	if !ok {
		return 0, fmt.Errorf("lookup %q: uid is %T %v, want a BIGINT", name, row[1], row[1])
	}
	return uid, nil
}

// liIDs records the uid seen for each name and fails on a second,
// different one.
type liIDs struct {
	mu  sync.Mutex
	ids map[string]int64
}

func (s *liIDs) see(name string, uid int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.ids[name]; ok && old != uid {
		return fmt.Errorf("%q got uid %d, earlier %d", name, uid, old)
	}
	s.ids[name] = uid
	return nil
}

func TestLookupInsertIfNotExists(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	tbl := liDictTable(t, c, db)
	ctx := testCtx(t)
	plain, err := tbl.NewLookuper()
	if err != nil {
		t.Fatal(err)
	}
	ins := liInsertLookuper(t, tbl)
	seen := &liIDs{ids: map[string]int64{}}

	// First use concurrently: the repeated "a" may share a request with
	// the first one, or come after it; either way it gets the same uid.
	names := []string{"a", "b", "a", "c", "b", "a"}
	errs := make(chan error, len(names))
	var wg sync.WaitGroup
	for _, n := range names {
		wg.Go(func() {
			uid, err := liUID(ctx, ins, n)
			if err == nil {
				err = seen.see(n, uid)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	// Then sequentially, with a key that is new at this point.
	for _, n := range []string{"a", "b", "a", "d", "d"} {
		uid, err := liUID(ctx, ins, n)
		if err == nil {
			err = seen.see(n, uid)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	owner := map[int64]string{}
	for n, uid := range seen.ids {
		if o, dup := owner[uid]; dup {
			t.Fatalf("%q and %q share uid %d", o, n, uid)
		}
		owner[uid] = n
	}
	// A plain lookuper sees the inserted rows, and nothing else.
	for n, want := range seen.ids {
		if uid, err := liUID(ctx, plain, n); err != nil || uid != want {
			t.Fatalf("plain lookup of %q: uid %d, %v; want %d", n, uid, err, want)
		}
	}
	if row, found, err := plain.Lookup(ctx, []any{"never"}); err != nil || found {
		t.Fatalf("plain lookup of a key never inserted: %v, %v, %v", row, found, err)
	}
	liPeerSees(t, tbl, seen.ids)
}

// liPeerSees checks that pyfluss reads the uid of every name.
func liPeerSees(t *testing.T, tbl *flussrpc.Table, ids map[string]int64) {
	t.Helper()
	var names []string
	var keys [][]any
	for n := range ids {
		names = append(names, n)
		keys = append(keys, []any{n})
	}
	rows := wtPeerLookup(t, tbl.Path(), []schema.DataType{schema.String()}, keys)
	if len(rows) != len(keys) {
		t.Fatalf("peer lookup: %d rows for %d keys", len(rows), len(keys))
	}
	for i, row := range rows {
		if len(row) != 3 {
			t.Fatalf("peer lookup of %q: row %s", names[i], row)
		}
		var uid json.Number
		if err := json.Unmarshal(row[1], &uid); err != nil || uid.String() != strconv.FormatInt(ids[names[i]], 10) {
			t.Fatalf("peer lookup of %q: uid %s (%v), want %d", names[i], row[1], err, ids[names[i]])
		}
	}
}

func TestLookupInsertIfNotExistsRefused(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	insert := flussrpc.LookupOptions{InsertIfNotExists: true}

	logTbl := createTable(t, c, db, uniqueName("log"), logTableDescriptor(t))
	if _, err := logTbl.NewLookuper(insert); !errors.Is(err, flussrpc.ErrNotPrimaryKeyTable) {
		t.Fatalf("log table: %v, want ErrNotPrimaryKeyTable", err)
	}

	cols := []schema.Column{
		schema.NewColumn("k1", schema.Int()),
		schema.NewColumn("k2", schema.Int()),
		schema.NewColumn("v", schema.String()),
	}
	prefixTbl := createTable(t, c, db, uniqueName("pre"), schema.TableDescriptor{
		Schema: newSchema(t, cols, "k1", "k2"), BucketKeys: []string{"k1"}, BucketCount: intPtr(2),
	})
	if _, err := prefixTbl.NewPrefixLookuper([]string{"k1"}); err != nil {
		t.Fatalf("plain prefix lookuper: %v", err)
	}
	if _, err := prefixTbl.NewPrefixLookuper([]string{"k1"}, insert); !errors.Is(err, flussrpc.ErrInvalidInsertLookup) {
		t.Fatalf("prefix lookuper: %v, want ErrInvalidInsertLookup", err)
	}

	cols[2].Type = schema.String().NotNull()
	notNullTbl := createTable(t, c, db, uniqueName("nn"), schema.TableDescriptor{Schema: newSchema(t, cols, "k1", "k2")})
	if _, err := notNullTbl.NewLookuper(insert); !errors.Is(err, flussrpc.ErrInvalidInsertLookup) {
		t.Fatalf("NOT NULL value column: %v, want ErrInvalidInsertLookup", err)
	}

	// Fluss 0.9.1 servers cannot insert keys of partitioned tables.
	partCols := []schema.Column{
		schema.NewColumn("region", schema.String()),
		schema.NewColumn("name", schema.String()),
		schema.NewColumn("uid", schema.BigInt()),
	}
	s, err := schema.NewSchema(partCols, []string{"region", "name"}, []string{"uid"})
	if err != nil {
		t.Fatal(err)
	}
	partTbl := createTable(t, c, db, uniqueName("dictp"), schema.TableDescriptor{Schema: s, PartitionKeys: []string{"region"}})
	if _, err := partTbl.NewLookuper(insert); !errors.Is(err, flussrpc.ErrInvalidInsertLookup) {
		t.Fatalf("partitioned table: %v, want ErrInvalidInsertLookup", err)
	}
}
