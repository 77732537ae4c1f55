package fluss_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"testing"
)

// BenchmarkDatabaseSQLFloor runs BenchmarkLookup's database/sql calls over
// a driver that does nothing (every query returns one row at once), so its
// cpu-µs/op is what database/sql itself costs per lookup: the floor under
// the driver's c=64 figures, whatever the driver does. At c=64 a prepared
// statement costs database/sql about twice an ad-hoc QueryRow: each call
// takes the statement's one mutex and searches its per-connection list.
//
//	go test -run '^$' -bench DatabaseSQLFloor -benchtime 300000x .
func BenchmarkDatabaseSQLFloor(b *testing.B) {
	db := sql.OpenDB(nopConnector{})
	defer db.Close()
	db.SetMaxIdleConns(64)
	const query = "SELECT s FROM kv WHERE id = ?"
	for _, conc := range []int{1, 64} {
		b.Run(fmt.Sprintf("sql-c%d", conc), func(b *testing.B) {
			runLookups(b, conc, func(i int) error {
				var s string
				return db.QueryRow(query, i).Scan(&s)
			})
		})
		b.Run(fmt.Sprintf("prepared-c%d", conc), func(b *testing.B) {
			st, err := db.Prepare(query)
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			runLookups(b, conc, func(i int) error {
				var s string
				return st.QueryRow(i).Scan(&s)
			})
		})
	}
}

// nopConnector and the types below make the do-nothing driver: one
// connection type serving ad-hoc and prepared queries alike.
type nopConnector struct{}

func (nopConnector) Connect(context.Context) (driver.Conn, error) { return nopConn{}, nil }
func (nopConnector) Driver() driver.Driver                        { return nil }

type nopConn struct{}

var errNop = errors.New("the benchmark's driver only queries")

func (nopConn) Prepare(string) (driver.Stmt, error) { return nopConn{}, nil }
func (nopConn) Close() error                        { return nil }
func (nopConn) Begin() (driver.Tx, error)           { return nil, errNop }
func (nopConn) NumInput() int                       { return 1 }
func (nopConn) Exec([]driver.Value) (driver.Result, error) {
	return nil, errNop
}
func (nopConn) Query([]driver.Value) (driver.Rows, error) { return &nopRows{}, nil }
func (nopConn) QueryContext(context.Context, string, []driver.NamedValue) (driver.Rows, error) {
	return &nopRows{}, nil
}

// nopRows is one row of one string column.
type nopRows struct{ done bool }

func (*nopRows) Columns() []string { return []string{"s"} }
func (*nopRows) Close() error      { return nil }
func (r *nopRows) Next(dest []driver.Value) error {
	if r.done {
		return io.EOF
	}
	r.done = true
	dest[0] = "x"
	return nil
}
