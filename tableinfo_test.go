package fluss_test

import (
	"context"
	"database/sql"
	"encoding/binary"
	"net"
	"sync"
	"testing"

	"github.com/gofluss/fluss"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/clustertest"
)

// requestCounter counts the request frames a client sends, by API key, as
// they leave through its Dialer.
type requestCounter struct {
	mu    sync.Mutex
	byKey map[flussrpc.APIKey]int
}

func (rc *requestCounter) count(api flussrpc.APIKey) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.byKey[api]
}

func (rc *requestCounter) reset() {
	rc.mu.Lock()
	clear(rc.byKey)
	rc.mu.Unlock()
}

func (rc *requestCounter) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, rc: rc}, nil
}

// countingConn splits what is written into request frames
// ([length int32][api key int16]...) and counts their API keys.
type countingConn struct {
	net.Conn
	rc  *requestCounter
	buf []byte
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.buf = append(c.buf, p...)
	for len(c.buf) >= 6 {
		n := int(binary.BigEndian.Uint32(c.buf))
		if len(c.buf) < 4+n {
			break
		}
		api := flussrpc.APIKey(binary.BigEndian.Uint16(c.buf[4:]))
		c.rc.mu.Lock()
		c.rc.byKey[api]++
		c.rc.mu.Unlock()
		c.buf = c.buf[4+n:]
	}
	return c.Conn.Write(p)
}

// TestColdStatementsFetchTableInfoOnce pins that planning and executing
// share one table handle: a single-row INSERT and a lookup on a client
// that has not seen the table yet each ask for its info once.
func TestColdStatementsFetchTableInfoOnce(t *testing.T) {
	setup := openDB(t, "")
	d := uniqueDB(t, setup)
	mustExec(t, setup, "CREATE TABLE "+d+".kv (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('bucket.num' = '1')")

	cfg, err := fluss.ParseDSN("fluss://" + clustertest.Bootstrap(t) + "/" + d)
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		name, query string
		exec        bool
	}{
		{"INSERT", "INSERT INTO kv VALUES (1, 'a')", true},
		{"lookup", "SELECT v FROM kv WHERE k = 1", false},
	} {
		// A new connector is a new client: cold caches.
		rc := &requestCounter{byKey: map[flussrpc.APIKey]int{}}
		cfg.Dialer = rc.dial
		c, err := fluss.NewConnector(cfg)
		if err != nil {
			t.Fatal(err)
		}
		db := sql.OpenDB(c)
		if err := db.PingContext(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		rc.reset()
		if step.exec {
			mustExec(t, db, step.query)
		} else if got := queryStrings(t, db, step.query); len(got) != 1 || got[0][0] != "a" {
			t.Errorf("%s: got %v", step.name, got)
		}
		if n := rc.count(flussrpc.APIKeyGetTableInfo); n != 1 {
			t.Errorf("a cold %s sent %d GET_TABLE_INFO requests, want 1", step.name, n)
		}
		db.Close()
	}
}
