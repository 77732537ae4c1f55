package schema

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckName(t *testing.T) {
	long := strings.Repeat("a", 1<<20)
	for _, tc := range []struct {
		name       string
		ok, okNew  bool
		errSays    string
		errOmitted string
	}{
		{"orders", true, true, "", ""},
		{"Orders-2026_v1", true, true, "", ""},
		{strings.Repeat("x", MaxNameLength), true, true, "", ""},
		{strings.Repeat("x", MaxNameLength+1), false, false, "longer than 200", ""},
		{long, false, false, "(1048576 characters)", long[:41]},
		{"", false, false, "empty", ""},
		{"a.b", false, false, "'.' is not allowed", ""},
		{"naïve", false, false, "'ï' is not allowed", ""},
		{"__internal", true, false, "reserved", ""},
	} {
		err, errNew := CheckName("table", tc.name), CheckNewName("table", tc.name)
		if (err == nil) != tc.ok || (errNew == nil) != tc.okNew {
			t.Errorf("%.50q: CheckName %v, CheckNewName %v", tc.name, err, errNew)
			continue
		}
		if errNew == nil {
			continue
		}
		if !errors.Is(errNew, ErrInvalidName) || !strings.Contains(errNew.Error(), tc.errSays) {
			t.Errorf("%.50q: %v, want ErrInvalidName saying %q", tc.name, errNew, tc.errSays)
		}
		if tc.errOmitted != "" && strings.Contains(errNew.Error(), tc.errOmitted) {
			t.Errorf("%.50q: the error holds the whole name", tc.name)
		}
	}
	if err := (TablePath{Database: "db", Table: "t$x"}).Check(); err == nil || !strings.Contains(err.Error(), "table name") {
		t.Errorf("TablePath.Check = %v", err)
	}
}
