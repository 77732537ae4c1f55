package flussrpc_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// TestOptionSizeLimit: descriptors and options too large for one ZooKeeper
// node are refused before anything is sent, and leave nothing behind; a
// descriptor just under the limit is stored and read back whole.
func TestOptionSizeLimit(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	adm := c.Admin()
	ctx := testCtx(t)
	db := newDatabase(t, adm)
	desc := func(props map[string]string) schema.TableDescriptor {
		return schema.TableDescriptor{
			Schema:           newSchema(t, []schema.Column{schema.NewColumn("id", schema.BigInt())}),
			CustomProperties: props,
		}
	}
	huge := strings.Repeat("v", 10<<20)
	tooLarge := []struct {
		name, culprit string
		call          func(path flussrpc.TablePath) error
	}{
		{"10 MB value", `"custom.k"`, func(p flussrpc.TablePath) error {
			return adm.CreateTable(ctx, p, desc(map[string]string{"custom.k": huge}), false)
		}},
		{"2 MB key", `"kkkk`, func(p flussrpc.TablePath) error {
			return adm.CreateTable(ctx, p, desc(map[string]string{strings.Repeat("k", 2<<20): "v"}), false)
		}},
		{"many options", `"custom.`, func(p flussrpc.TablePath) error {
			props := map[string]string{}
			for i := range 2000 {
				props["custom."+strings.Repeat("x", 10)+string(rune('a'+i%26))+strings.Repeat("y", i%500)] = strings.Repeat("v", 600)
			}
			return adm.CreateTable(ctx, p, desc(props), false)
		}},
	}
	for _, tc := range tooLarge {
		t.Run(tc.name, func(t *testing.T) {
			path := flussrpc.TablePath{Database: db, Table: uniqueName("big")}
			err := tc.call(path)
			if !errors.Is(err, flussrpc.ErrMetadataTooLarge) || !strings.Contains(err.Error(), tc.culprit) {
				t.Fatalf("error = %v, want ErrMetadataTooLarge naming %s", err, tc.culprit)
			}
			if len(err.Error()) > 400 {
				t.Errorf("the error quotes too much: %d bytes", len(err.Error()))
			}
			if ok, err := adm.TableExists(ctx, path); err != nil || ok {
				t.Fatalf("TableExists after a refused create = %v, %v", ok, err)
			}
		})
	}
	t.Run("database", func(t *testing.T) {
		name := uniqueName("bigdb")
		err := adm.CreateDatabase(ctx, name, schema.DatabaseDescriptor{Comment: huge}, false)
		if !errors.Is(err, flussrpc.ErrMetadataTooLarge) {
			t.Fatalf("CreateDatabase with a 10 MB comment: %v", err)
		}
		if ok, err := adm.DatabaseExists(ctx, name); err != nil || ok {
			t.Fatalf("DatabaseExists after a refused create = %v, %v", ok, err)
		}
	})

	// Just under the limit, the server stores the option (so the limit
	// refuses nothing the server could keep but the last few kilobytes).
	path := flussrpc.TablePath{Database: db, Table: uniqueName("edge")}
	value := strings.Repeat("v", flussrpc.MaxStoredMetadataBytes-4096)
	mustCreate(t, adm, path, desc(map[string]string{"custom.k": value}))
	info, err := adm.GetTableInfo(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Descriptor.CustomProperties["custom.k"]; got != value {
		t.Fatalf("custom.k read back with %d bytes, want %d", len(got), len(value))
	}
	err = adm.AlterTable(ctx, path, false, flussrpc.SetOption("custom.k2", huge))
	if !errors.Is(err, flussrpc.ErrMetadataTooLarge) {
		t.Fatalf("AlterTable setting a 10 MB option: %v", err)
	}
}
