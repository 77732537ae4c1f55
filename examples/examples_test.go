package examples

import "testing"

// TestDefaultDSN: without FLUSS_BOOTSTRAP the examples go to the cluster
// `make demo` started, on FLUSS_PORT; before, they always went to 9123.
func TestDefaultDSN(t *testing.T) {
	for _, tc := range []struct{ bootstrap, port, want string }{
		{"", "", "fluss://127.0.0.1:9123/"},
		{"", "9950", "fluss://127.0.0.1:9950/"},
		{"h:1", "9950", "fluss://h:1/"},
	} {
		t.Setenv("FLUSS_BOOTSTRAP", tc.bootstrap)
		t.Setenv("FLUSS_PORT", tc.port)
		if got, err := defaultDSN(); err != nil || got != tc.want {
			t.Errorf("FLUSS_BOOTSTRAP=%q FLUSS_PORT=%q: %q, %v; want %q", tc.bootstrap, tc.port, got, err, tc.want)
		}
	}
	t.Setenv("FLUSS_BOOTSTRAP", "")
	t.Setenv("FLUSS_PORT", "80")
	if _, err := defaultDSN(); err == nil {
		t.Error("FLUSS_PORT=80 accepted")
	}
}

// TestInDatabase: the gorm and bun examples appended the database name to
// the DSN's text, which broke a -dsn without the trailing slash
// (fluss://h:1gorm_example) or with keys (fluss://h:1/?tx=reject...).
func TestInDatabase(t *testing.T) {
	for _, tc := range []struct{ dsn, want string }{
		{"fluss://h:1/", "fluss://h:1/shop"},
		{"fluss://h:1", "fluss://h:1/shop"},
		{"fluss://h:1/other", "fluss://h:1/shop"},
		{"fluss://u:p@h:1/?tx=reject", "fluss://u:p@h:1/shop?tx=reject"},
	} {
		cfg, err := InDatabase(tc.dsn, "shop")
		if err != nil {
			t.Errorf("%s: %v", tc.dsn, err)
			continue
		}
		if got := cfg.FormatDSN(); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.dsn, got, tc.want)
		}
	}
	if _, err := InDatabase("h:1", "shop"); err == nil {
		t.Error("a DSN without fluss:// accepted")
	}
}
