//go:build duckdb_arrow

package analytics_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/internal/testkit"
)

// The engine's time functions read the session's zone, as Flink's do:
// the wall clock of a TIMESTAMP_LTZ, day buckets, and epoch conversions.
// The expected values come from Go's time package.
func TestEngineSessionZone(t *testing.T) {
	ctx := testkit.Context(t)
	name, db := scratchDatabase(t, "zone", "CREATE TABLE {db}.ev (id INT, at TIMESTAMP_LTZ(3)) WITH ('bucket.num' = '1')")
	// Two instants of one day in Shanghai, of two days in UTC.
	at := []time.Time{time.Date(2024, 3, 3, 20, 30, 0, 0, time.UTC), time.Date(2024, 3, 4, 1, 0, 0, 0, time.UTC)}
	if _, err := db.ExecContext(ctx, "INSERT INTO "+name+".ev VALUES (1, ?), (2, ?)", at[0], at[1]); err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	query := func(q string) (string, error) {
		rows, err := conn.QueryContext(ctx, q)
		if err != nil {
			return "", err
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var a, b sql.NullString
			if err := rows.Scan(&a, &b); err != nil {
				return "", err
			}
			out = append(out, a.String+"|"+b.String)
		}
		return strings.Join(out, " "), rows.Err()
	}
	// The queries, and what they return in loc.
	const wall, second = "2006-01-02 15:04", "2006-01-02 15:04:05"
	queries := func(loc *time.Location) [][2]string {
		var hours, days []string
		perDay := map[string]int{}
		for _, ts := range at {
			l := ts.In(loc)
			hours = append(hours, fmt.Sprintf("%s|%d", l.Format(wall), l.Hour()))
			day := l.Format(time.DateOnly) + " 00:00"
			if perDay[day] == 0 {
				days = append(days, day)
			}
			perDay[day]++
		}
		for i, d := range days {
			days[i] = fmt.Sprintf("%s|%d", d, perDay[d])
		}
		local := at[0].In(loc).Format(second)
		return [][2]string{
			{"SELECT DATE_FORMAT(at, 'yyyy-MM-dd HH:mm'), EXTRACT(HOUR FROM at) FROM " + name + ".ev ORDER BY id", strings.Join(hours, " ")},
			{"SELECT DATE_FORMAT(FLOOR(at TO DAY), 'yyyy-MM-dd HH:mm'), COUNT(*) FROM " + name + ".ev GROUP BY FLOOR(at TO DAY) ORDER BY 1", strings.Join(days, " ")},
			{fmt.Sprintf("SELECT UNIX_TIMESTAMP('%s'), FROM_UNIXTIME(%d) FROM %s.ev WHERE id = 1", local, at[0].Unix(), name),
				fmt.Sprintf("%d|%s", at[0].Unix(), local)},
			{"SELECT DATE_FORMAT(CAST(at AS TIMESTAMP), 'yyyy-MM-dd HH:mm:ss'), 'x' FROM " + name + ".ev WHERE id = 1", local + "|x"},
		}
	}
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		set string
		loc *time.Location
	}{
		{"Asia/Shanghai", shanghai},
		{"GMT+08:00", shanghai}, // no daylight saving time there
		{"default", time.UTC},   // RESET's zone: the connection's
	} {
		if _, err := conn.ExecContext(ctx, "SET 'table.local-time-zone' = '"+tc.set+"'"); err != nil {
			t.Fatal(err)
		}
		for _, q := range queries(tc.loc) {
			got, err := query(q[0])
			if err != nil {
				t.Fatalf("%s: %s: %v", tc.set, q[0], err)
			}
			if got != q[1] {
				t.Errorf("%s: %s\n got %s\nwant %s", tc.set, q[0], got, q[1])
			}
		}
	}
	if _, err := conn.ExecContext(ctx, "SET 'table.local-time-zone' = 'GMT+05:30'"); err != nil {
		t.Fatal(err)
	}
	if _, err := query(queries(time.UTC)[0][0]); err == nil || !strings.Contains(err.Error(), "whole-hour offset") {
		t.Fatalf("a half-hour offset: %v", err)
	}
}
