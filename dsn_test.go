package fluss

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseDSN(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dsn  string
		want func(*Config)
	}{
		{"fluss://127.0.0.1:9123", func(c *Config) { c.Addrs = []string{"127.0.0.1:9123"} }},
		{"fluss://h1:1,h2:2/shop", func(c *Config) { c.Addrs = []string{"h1:1", "h2:2"}; c.Database = "shop" }},
		{"fluss://host/", func(c *Config) { c.Addrs = []string{"host:9123"} }},
		{"fluss://[::1]:9123/db", func(c *Config) { c.Addrs = []string{"[::1]:9123"}; c.Database = "db" }},
		{"fluss://alice:s%40cret@h:1/d", func(c *Config) {
			c.Addrs, c.User, c.Password, c.Database = []string{"h:1"}, "alice", "s@cret", "d"
		}},
		{"fluss://h:1/?loc=Asia%2FTokyo&tx=reject&ddl=lenient&multi_statements=true&catalog=cat&client_id=app",
			func(c *Config) {
				c.Addrs, c.Location, c.TxMode, c.LenientDDL, c.MultiStatements, c.Catalog, c.ClientID =
					[]string{"h:1"}, tokyo, "reject", true, true, "cat", "app"
			}},
		{"fluss://h:1?connect_timeout=2s&request_timeout=1m&client.writer.batch-size=1mb&scan.startup.mode=earliest",
			func(c *Config) {
				c.Addrs, c.ConnectTimeout, c.RequestTimeout = []string{"h:1"}, 2*time.Second, time.Minute
				c.Options = map[string]string{"client.writer.batch-size": "1mb", "scan.startup.mode": "earliest"}
			}},
	} {
		t.Run(tc.dsn, func(t *testing.T) {
			got, err := ParseDSN(tc.dsn)
			if err != nil {
				t.Fatal(err)
			}
			want := NewConfig()
			tc.want(want)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("ParseDSN(%q)\n got %#v\nwant %#v", tc.dsn, got, want)
			}
		})
	}
}

func TestParseDSNErrors(t *testing.T) {
	for _, tc := range []struct{ dsn, msg string }{
		{"mysql://h:1", "must start with fluss://"},
		{"fluss://", "no host"},
		{"fluss://h:x", "bad port"},
		{"fluss://h:99999", "bad port"},
		{"fluss://h:1,", "empty host"},
		{"fluss://00]0", "bad or empty host"},
		{"fluss://h:1/a/b", "single database name"},
		{"fluss://h:1?nope=1", `unknown key "nope"; known keys: catalog, client.lookup.batch-size`},
		{"fluss://h:1?client.security.sasl.password=x", "user:password@"},
		{"fluss://h:1?tx=maybe", `want "batch" or "reject"`},
		{"fluss://h:1?loc=Mars%2FOlympus", "unknown time zone"},
		{"fluss://h:1?connect_timeout=soon", "duration"},
		{"fluss://h:1?tx=batch&tx=reject", "given 2 times"},
		{"fluss://u@h:1", "needs a password"},
		{"fluss://:pw@h:1", "user name is required"},
	} {
		t.Run(tc.dsn, func(t *testing.T) {
			_, err := ParseDSN(tc.dsn)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("ParseDSN(%q) error = %v, want one containing %q", tc.dsn, err, tc.msg)
			}
		})
	}
}

// TestPasswordNeverInErrors pins that a malformed DSN's error hides the
// password wherever it sits, including unescaped '/', '?' and '@'.
func TestPasswordNeverInErrors(t *testing.T) {
	for _, dsn := range []string{
		"fluss://bob:TopSecret1@h:x",
		"fluss://bob:Top/Secret1@h:1/db/extra",
		"fluss://bob:Top?Secret1@h:1?nope=1",
		"fluss://bob:Top@Secret1@h:1?tx=no",
		"fluss://bob:TopSecret1%zz@h:1",
		"bob:TopSecret1@h:1",
	} {
		_, err := ParseDSN(dsn)
		if err == nil {
			t.Fatalf("ParseDSN(%q) succeeded", dsn)
		}
		for _, part := range []string{"TopSecret1", "Secret1"} {
			if strings.Contains(err.Error(), part) {
				t.Fatalf("error for %q leaks the password: %v", dsn, err)
			}
		}
	}
	cfg, err := ParseDSN("fluss://bob:TopSecret1@h:1")
	if err != nil {
		t.Fatal(err)
	}
	if s := cfg.String(); strings.Contains(s, "TopSecret1") || !strings.Contains(s, "bob:xxxxx@") {
		t.Fatalf("String() = %q", s)
	}
}

func TestFormatDSNRoundTrip(t *testing.T) {
	cfg := NewConfig()
	cfg.Addrs = []string{"a:1", "[::1]:2"}
	cfg.User, cfg.Password = "u s", "p@ss/w:rd?"
	cfg.Database = "my-db"
	cfg.TxMode, cfg.LenientDDL, cfg.MultiStatements = "reject", true, true
	cfg.ConnectTimeout = 3 * time.Second
	cfg.Options["fluss.scan.max-rows"] = "10"
	back, err := ParseDSN(cfg.FormatDSN())
	if err != nil {
		t.Fatalf("ParseDSN(FormatDSN()) = %v (dsn %s)", err, cfg.Redacted())
	}
	if !reflect.DeepEqual(back, cfg) {
		t.Fatalf("round trip changed the config:\n got %#v\nwant %#v", back, cfg)
	}
}

// FuzzParseDSN: parsing never panics, and a parsed DSN formats to one that
// parses to the same Config.
func FuzzParseDSN(f *testing.F) {
	for _, s := range []string{
		"fluss://127.0.0.1:9123", "fluss://u:p@h1:1,h2:2/db?tx=reject&loc=UTC",
		"fluss://h:1?client.writer.acks=all&fluss.scan.max-rows=5", "fluss://[::1]/x", "fluss://u:p%2Fq@h/",
		"fluss://00]0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dsn string) {
		cfg, err := ParseDSN(dsn)
		if err != nil {
			return
		}
		again, err := ParseDSN(cfg.FormatDSN())
		if err != nil {
			t.Fatalf("FormatDSN output %q does not parse: %v", cfg.Redacted(), err)
		}
		if !reflect.DeepEqual(cfg, again) {
			t.Fatalf("round trip of %q changed the config", dsn)
		}
	})
}

// FuzzDSNRedaction: whatever surrounds it, a password never shows in an
// error about the DSN. The password carries a marker that the rest of the
// DSN does not, so the check cannot be fooled by text that merely looks
// like the password.
func FuzzDSNRedaction(f *testing.F) {
	f.Add("bob", "Top", "Secret", "h:x")
	f.Add("bob", "a/b?c", "@d", "h:1/db?tx=no")
	f.Add("x", "p%zz", "word", "h")
	const marker = "K7pQ"
	f.Fuzz(func(t *testing.T, user, before, after, rest string) {
		if strings.ContainsAny(user, ":@/") || strings.Contains(user+rest, marker[:2]) {
			return
		}
		_, err := ParseDSN("fluss://" + user + ":" + before + marker + after + "@" + rest)
		if err != nil && strings.Contains(err.Error(), marker) {
			t.Fatalf("error leaks the password: %v", err)
		}
	})
}
