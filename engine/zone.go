package engine

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gofluss/fluss/planner"
)

// The session time zone (planner.LocalTimeZone), which SET changes here
// too, interprets TIMESTAMP_LTZ text, gives the wall clock of NOW() and
// CURRENT_DATE, and places the time.Time values returned for
// TIMESTAMP_LTZ. RESET returns to the connection's zone (the DSN's loc).

// zoneOffset is a custom zone id as Java's ZoneId reads them: GMT+8,
// UTC-08:00, +05:30.
var zoneOffset = regexp.MustCompile(`^(?i:GMT|UTC)?([+-])(\d{1,2})(?::?(\d{2}))?$`)

// parseTimeZone reads a value of table.local-time-zone: an IANA name such
// as 'Asia/Shanghai', a custom id such as 'GMT-08:00', or 'default' for
// def, the connection's zone.
func parseTimeZone(v string, def *time.Location) (*time.Location, error) {
	name := strings.TrimSpace(v)
	switch {
	case strings.EqualFold(name, "default"):
		return def, nil
	case strings.EqualFold(name, "UTC"), strings.EqualFold(name, "GMT"), name == "Z":
		return time.UTC, nil
	}
	if m := zoneOffset.FindStringSubmatch(name); m != nil {
		h, _ := strconv.Atoi(m[2])
		mins, _ := strconv.Atoi(m[3])
		if h > 18 || mins > 59 {
			return nil, fmt.Errorf("fluss: '%s' = '%s': an offset is at most 18:00", planner.LocalTimeZone, v)
		}
		secs := (h*60 + mins) * 60
		if m[1] == "-" {
			secs = -secs
		}
		return time.FixedZone(name, secs), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil || name == "" || strings.EqualFold(name, "local") {
		return nil, fmt.Errorf("fluss: '%s' = '%s' is not a time zone: use a full name such as 'America/Los_Angeles', an offset such as 'GMT-08:00', or 'default'", planner.LocalTimeZone, v)
	}
	return loc, nil
}
