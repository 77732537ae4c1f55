package flussrpc_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/clustertest"
)

func TestSASLPlain(t *testing.T) {
	addr := clustertest.SASLBootstrap(t)
	c := newClient(t, flussrpc.Config{
		Bootstrap: []string{addr},
		Conn:      flussrpc.ConnConfig{Username: clustertest.SASLUser, Password: clustertest.SASLPassword},
	})
	ctx := testCtx(t)
	dbs, err := c.Admin().ListDatabases(ctx)
	if err != nil || !slices.Contains(dbs, "fluss") {
		t.Fatalf("ListDatabases over SASL = %v, %v", dbs, err)
	}
	// Metadata answers with the addresses of the listener we came in on, so
	// requests to tablet servers (ListOffsets goes to bucket leaders) are
	// authenticated too.
	db := newDatabase(t, c.Admin())
	path := flussrpc.TablePath{Database: db, Table: "t"}
	mustCreate(t, c.Admin(), path, logTableDescriptor(t))
	if _, err := c.Admin().ListOffsets(ctx, path, "", nil, flussrpc.OffsetLatest()); err != nil {
		t.Fatalf("ListOffsets over SASL: %v", err)
	}
	nodes, err := c.Admin().GetServerNodes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		if n.Addr() == clustertest.Bootstrap(t) {
			t.Fatalf("SASL metadata lists the plaintext listener %s", n.Addr())
		}
	}
}

func TestSASLRejectsBadCredentials(t *testing.T) {
	addr := clustertest.SASLBootstrap(t)
	for _, tc := range []struct {
		name       string
		user, pass string
	}{
		{"wrong password", clustertest.SASLUser, "not-the-password"},
		{"unknown user", "mallory", "x"},
		{"no credentials", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			c, err := flussrpc.NewClient(ctx, flussrpc.Config{
				Bootstrap: []string{addr},
				Conn:      flussrpc.ConnConfig{Username: tc.user, Password: tc.pass},
			})
			if err == nil {
				c.Close()
				t.Fatal("NewClient succeeded against a SASL listener with bad credentials")
			}
			if !errors.Is(err, flussrpc.ErrAuthenticate) {
				t.Fatalf("error = %v, want AUTHENTICATE_EXCEPTION", err)
			}
			if tc.pass != "" && strings.Contains(err.Error(), tc.pass) {
				t.Fatalf("error message leaks the password: %v", err)
			}
		})
	}
}
