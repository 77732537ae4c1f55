package flussrpc_test

import (
	"testing"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// TestSharedTableHandle checks Client.Table: one handle until DDL through
// the client (or ForgetTable) drops it, and then the new schema.
func TestSharedTableHandle(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	adm := c.Admin()
	ctx := testCtx(t)
	db := newDatabase(t, adm)
	path := flussrpc.TablePath{Database: db, Table: "shared"}
	mustCreate(t, adm, path, logTableDescriptor(t))
	first, err := c.Table(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := c.Table(ctx, path); err != nil || again != first {
		t.Fatalf("second Table call: %p, %v; want the first handle %p", again, err, first)
	}
	c.ForgetTable(path)
	fresh, err := c.Table(ctx, path)
	if err != nil || fresh == first {
		t.Fatalf("Table after ForgetTable: %p, %v; want a new handle", fresh, err)
	}
	if err := adm.AlterTable(ctx, path, false, flussrpc.AddColumn(schema.NewColumn("extra", schema.Int()))); err != nil {
		t.Fatal(err)
	}
	altered, err := c.Table(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if altered.Info().SchemaID != fresh.Info().SchemaID+1 {
		t.Errorf("schema id after ALTER: %d, want %d", altered.Info().SchemaID, fresh.Info().SchemaID+1)
	}
	if err := adm.DropTable(ctx, path, false); err != nil {
		t.Fatal(err)
	}
	_, err = c.Table(ctx, path)
	wantCode(t, "Table after DROP TABLE", err, flussrpc.ErrTableNotExist)
}
