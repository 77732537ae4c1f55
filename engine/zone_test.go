package engine

import (
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the IANA names below, on machines without a zone database

	"github.com/gofluss/fluss/internal/testkit"
	"github.com/gofluss/fluss/planner"
)

func TestParseTimeZone(t *testing.T) {
	def := time.FixedZone("dsn", 3600)
	tests := []struct {
		in      string
		offset  int // seconds east of UTC on 2024-01-01
		want    *time.Location
		wantErr bool
	}{
		{in: "default", want: def},
		{in: "UTC", want: time.UTC},
		{in: "gmt", want: time.UTC},
		{in: "GMT-08:00", offset: -8 * 3600},
		{in: "UTC+8", offset: 8 * 3600},
		{in: "+05:30", offset: 5*3600 + 30*60},
		{in: "America/Los_Angeles", offset: -8 * 3600},
		{in: " Asia/Shanghai ", offset: 8 * 3600},
		{in: "GMT+19:00", wantErr: true},
		{in: "GMT+08:75", wantErr: true},
		{in: "", wantErr: true},
		{in: "Local", wantErr: true},
		{in: "Mars/Olympus_Mons", wantErr: true},
	}
	for _, tc := range tests {
		loc, err := parseTimeZone(tc.in, def)
		switch {
		case tc.wantErr:
			if err == nil || !strings.Contains(err.Error(), planner.LocalTimeZone) {
				t.Errorf("%q: %v, %v; want an error naming the setting", tc.in, loc, err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.want != nil && loc != tc.want:
			t.Errorf("%q: %v, want %v", tc.in, loc, tc.want)
		case tc.want == nil:
			if _, off := time.Date(2024, 1, 1, 0, 0, 0, 0, loc).Zone(); off != tc.offset {
				t.Errorf("%q: offset %d s, want %d", tc.in, off, tc.offset)
			}
		}
	}
}

// TestSetLocalTimeZone: SET 'table.local-time-zone' is the session's zone
// for TIMESTAMP_LTZ text, the values returned and the clock, as in Flink;
// RESET returns to the connection's; a bad zone is refused and changes
// nothing.
func TestSetLocalTimeZone(t *testing.T) {
	s, _ := fakeSession(t)
	ctx := testkit.Context(t)
	for _, sql := range []string{
		"CREATE TABLE z (id INT, lts TIMESTAMP_LTZ(3), wall TIMESTAMP(3)) WITH ('bucket.num' = '1')",
		"SET 'table.local-time-zone' = 'GMT+08:00'",
		"INSERT INTO z VALUES (1, TIMESTAMP '2024-01-01 08:00:00', LOCALTIMESTAMP)",
	} {
		if _, err := run(ctx, s, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	rows := query(t, s, "SELECT lts, wall FROM z")
	lts := rows[0][0].(time.Time)
	if !lts.Equal(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("TIMESTAMP_LTZ text read in GMT+08:00: %v, want midnight UTC", lts)
	}
	if _, off := lts.Zone(); off != 8*3600 {
		t.Errorf("TIMESTAMP_LTZ returned in %v, want the session's GMT+08:00", lts.Location())
	}
	if wall, now := rows[0][1].(time.Time), time.Now().UTC().Add(8*time.Hour); wall.Sub(now).Abs() > time.Minute {
		t.Errorf("LOCALTIMESTAMP in GMT+08:00 = %v, want about %v", wall, now)
	}
	if got, _ := run(ctx, s, "SET"); !strings.Contains(got, "table.local-time-zone|GMT+08:00") {
		t.Errorf("SET lists %q", got)
	}
	if _, err := run(ctx, s, "SET 'table.local-time-zone' = 'Mars/Olympus_Mons'"); err == nil {
		t.Error("an unknown zone was accepted")
	}
	if got, _ := run(ctx, s, "SET"); !strings.Contains(got, "GMT+08:00") {
		t.Errorf("a refused zone changed the setting: %q", got)
	}
	if _, err := run(ctx, s, "RESET 'table.local-time-zone'"); err != nil {
		t.Fatal(err)
	}
	if lts := query(t, s, "SELECT lts FROM z")[0][0].(time.Time); lts.Location() != time.UTC {
		t.Errorf("after RESET, TIMESTAMP_LTZ returned in %v, want the connection's UTC", lts.Location())
	}
}

func FuzzParseTimeZone(f *testing.F) {
	for _, s := range []string{"default", "UTC", "GMT-08:00", "UTC+8", "+05:30", "-1", "America/Los_Angeles", "Asia/Shanghai", "../../etc/passwd", "GMT+99:99", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		loc, err := parseTimeZone(s, time.UTC)
		if (err == nil) == (loc == nil) {
			t.Fatalf("%q: %v, %v", s, loc, err)
		}
		if err == nil {
			if _, off := time.Date(2024, 1, 1, 0, 0, 0, 0, loc).Zone(); off < -18*3600 || off > 18*3600 {
				t.Fatalf("%q: offset %d s", s, off)
			}
		}
	})
}
