package engine

import (
	"database/sql/driver"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/gofluss/fluss/internal/testkit"
	"github.com/gofluss/fluss/parser"
)

// TestClockValues: NOW() and its kin in VALUES and in SELECT without FROM
// read the clock once per execution, seen in the session's time zone:
// every row of one INSERT gets the same instant, a TIMESTAMP column its
// wall clock in that zone, a DATE column its date there.
func TestClockValues(t *testing.T) {
	tokyo := time.FixedZone("JST", 9*3600)
	s, _ := fakeSessionWith(t, Config{Database: "fluss", Location: tokyo})
	ctx := testkit.Context(t)
	for _, sql := range []string{
		"CREATE TABLE clock (id INT, ts TIMESTAMP(3), lts TIMESTAMP_LTZ(6), d DATE, tod TIME(3)) WITH ('bucket.num' = '1')",
		"INSERT INTO clock VALUES (1, NOW(), CURRENT_TIMESTAMP, CURRENT_DATE, CURRENT_TIME), (2, LOCALTIMESTAMP, NOW(), CURRENT_DATE, LOCALTIME)",
	} {
		if _, err := run(ctx, s, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	before := time.Now().Add(-time.Minute)
	rows := query(t, s, "SELECT * FROM clock")
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	lts, ok := rows[0][2].(time.Time)
	if !ok || lts.Before(before) || lts.After(time.Now()) || lts.Nanosecond()%int(time.Millisecond) != 0 {
		t.Fatalf("CURRENT_TIMESTAMP read %v: want a recent instant to the millisecond", rows[0][2])
	}
	local := lts.In(tokyo)
	want := []string{local.Format("2006-01-02 15:04:05.000"), local.Format("2006-01-02"), local.Format("15:04:05")}
	for i, r := range rows {
		if !r[2].(time.Time).Equal(lts) {
			t.Errorf("row %d: instant %v, want the statement's %v", i+1, r[2], lts)
		}
		got := []string{r[1].(time.Time).Format("2006-01-02 15:04:05.000"), r[3].(time.Time).Format("2006-01-02"), r[4].(time.Time).Format("15:04:05")}
		if got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
			t.Errorf("row %d: wall clock, date, time of day %q, want %q (the instant in the session's zone)", i+1, got, want)
		}
	}
	row := query(t, s, "SELECT NOW(), LOCALTIMESTAMP, CURRENT_DATE")
	now, _ := row[0][0].(time.Time)
	if now.Before(lts) || now.Location() != tokyo || row[0][1].(time.Time).Format(time.DateTime) != now.Format(time.DateTime) {
		t.Errorf("SELECT NOW(), LOCALTIMESTAMP gave %v, %v: want one later instant, in the session's zone", row[0][0], row[0][1])
	}
}

// query runs a query and returns its rows.
func query(t *testing.T, s *Session, sql string) [][]driver.Value {
	t.Helper()
	stmts, err := parser.ParseScript(sql)
	if err != nil {
		t.Fatal(err)
	}
	rows, _, err := s.Prepare(stmts[0]).Run(testkit.Context(t), nil)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	defer rows.Close()
	var out [][]driver.Value
	for {
		dest := make([]driver.Value, len(rows.Columns()))
		switch err := rows.Next(dest); {
		case errors.Is(err, io.EOF):
			return out
		case err != nil:
			t.Fatalf("%s: %v", sql, err)
		}
		out = append(out, dest)
	}
}
