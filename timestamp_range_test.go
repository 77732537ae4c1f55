package fluss_test

import (
	"database/sql"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestNanoTimestampRange writes the last instant of year 9999 and the first
// of year 1 to nanosecond-precision columns through SQL literals and bound
// parameters. An ARROW log table stores such columns as int64 nanoseconds
// since the epoch (1677-09-21 … 2262-04-11): the value must be refused with
// an error naming the column, the value and the range, where it used to
// wrap silently (9999-12-31 came back as a day in 1816). Tables whose rows
// keep epoch milliseconds plus nano-of-milli store it exactly; a
// primary-key table whose changelog is ARROW refuses it too, because the
// server would wrap it in the changelog while the key-value store kept it.
func TestNanoTimestampRange(t *testing.T) {
	db := openDB(t, "")
	d := uniqueDB(t, db)
	end := time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
	first := time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC)
	tables := []struct {
		name, ddl string
		refused   bool
	}{
		{"arrow_log", "(id INT, ts TIMESTAMP(9), ltz TIMESTAMP_LTZ(9)) WITH ('table.log.format' = 'ARROW')", true},
		{"indexed_log", "(id INT, ts TIMESTAMP(9), ltz TIMESTAMP_LTZ(9)) WITH ('table.log.format' = 'INDEXED')", false},
		{"pk_compacted", "(id INT, ts TIMESTAMP(9), ltz TIMESTAMP_LTZ(9), PRIMARY KEY (id) NOT ENFORCED) WITH ('table.log.format' = 'COMPACTED')", false},
		{"pk_arrow", "(id INT, ts TIMESTAMP(9), ltz TIMESTAMP_LTZ(9), PRIMARY KEY (id) NOT ENFORCED)", true},
	}
	for _, tb := range tables {
		mustExec(t, db, "CREATE TABLE "+d+"."+tb.name+" "+tb.ddl)
	}
	for _, tb := range tables {
		t.Run(tb.name, func(t *testing.T) {
			q := "INSERT INTO " + d + "." + tb.name
			attempts := []struct {
				col, value string
				err        error
			}{
				{"ts", "9999-12-31 23:59:59.999999999", execErr(t, db, q+" VALUES (1, TIMESTAMP '9999-12-31 23:59:59.999999999', NULL)")},
				{"ts", "0001-01-01 00:00:00.000000001", execErr(t, db, q+" VALUES (2, ?, NULL)", first)},
				{"ltz", "9999-12-31 23:59:59.999999999Z", execErr(t, db, q+" (id, ltz) VALUES (3, ?)", end)},
			}
			for _, a := range attempts {
				if !tb.refused {
					if a.err != nil {
						t.Errorf("%s = %s: %v", a.col, a.value, a.err)
					}
					continue
				}
				if a.err == nil {
					t.Errorf("%s = %s was accepted; the table cannot store it", a.col, a.value)
					continue
				}
				for _, part := range []string{`column "` + a.col + `"`, a.value, "1677-09-21 00:12:43.145224192", "2262-04-11 23:47:16.854775807"} {
					if !strings.Contains(a.err.Error(), part) {
						t.Errorf("error %q lacks %q", a.err, part)
					}
				}
			}
			// The edges of the nanosecond range are stored exactly everywhere.
			mustExec(t, db, q+" VALUES (4, TIMESTAMP '2262-04-11 23:47:16.854775807', ?)", time.Unix(0, math.MinInt64))
			got := queryStrings(t, db, "SELECT id, ts, ltz FROM "+d+"."+tb.name)
			want := [][]string{{"4", "2262-04-11T23:47:16.854775807Z", "1677-09-21T00:12:43.145224192Z"}}
			if !tb.refused {
				want = append(want,
					[]string{"1", "9999-12-31T23:59:59.999999999Z", "NULL"},
					[]string{"2", "0001-01-01T00:00:00.000000001Z", "NULL"},
					[]string{"3", "NULL", "9999-12-31T23:59:59.999999999Z"})
			}
			slices.SortFunc(got, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
			slices.SortFunc(want, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("rows %v, want %v", got, want)
			}
		})
	}
}

func execErr(t *testing.T, db *sql.DB, query string, args ...any) error {
	_, err := db.ExecContext(ctxT(t), query, args...)
	return err
}
