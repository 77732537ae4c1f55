package flussrpc

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/fakefluss"
)

// Names Fluss cannot hold fail in the client, before any request: a
// megabyte-long database name once waited out the request timeout.
func TestAdminRefusesInvalidNames(t *testing.T) {
	f := newFakeCluster(t, 1)
	adm := f.c.Admin()
	long := strings.Repeat("d", 1<<20)
	ctx := context.Background()
	sent := f.Requests(fakefluss.ListTables) + f.Requests(fakefluss.CreateTable) + f.Requests(fakefluss.GetTableInfo)
	checks := map[string]error{} // by call; all but CreateTable name a bad database
	_, checks["ListTables"] = adm.ListTables(ctx, long)
	_, checks["DatabaseExists"] = adm.DatabaseExists(ctx, "a b")
	_, checks["GetTableInfo"] = adm.GetTableInfo(ctx, TablePath{Database: "d b", Table: "t"})
	checks["CreateDatabase"] = adm.CreateDatabase(ctx, "__mine", schema.DatabaseDescriptor{}, false)
	checks["CreateTable"] = adm.CreateTable(ctx, TablePath{Database: "db", Table: "__t"}, schema.TableDescriptor{}, false)
	for call, err := range checks {
		want := ErrInvalidDatabase
		if call == "CreateTable" {
			want = ErrInvalidTable
		}
		if !errors.Is(err, want) || len(err.Error()) > 1000 {
			t.Errorf("%s: %.300v, want %v", call, err, want)
		}
	}
	if now := f.Requests(fakefluss.ListTables) + f.Requests(fakefluss.CreateTable) + f.Requests(fakefluss.GetTableInfo); now != sent {
		t.Errorf("%d requests were sent for invalid names", now-sent)
	}
}
