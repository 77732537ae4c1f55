package fluss

import (
	"crypto/tls"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
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
	tls13 := registerTestTLS(t, &tls.Config{MinVersion: tls.VersionTLS13})
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
		{"fluss://h:1?fluss.engine.memory-limit=2GB&fluss.engine.threads=2&client.writer.delivery-timeout=30s",
			func(c *Config) {
				c.Addrs = []string{"h:1"}
				c.Options = map[string]string{"fluss.engine.memory-limit": "2GB", "fluss.engine.threads": "2",
					"client.writer.delivery-timeout": "30s"}
			}},
		// The Java client's name of the request timeout, in its format.
		{"fluss://h:1?client.request-timeout=45%20s", func(c *Config) {
			c.Addrs, c.RequestTimeout = []string{"h:1"}, 45*time.Second
		}},
		{"fluss://h:1?tls=false", func(c *Config) { c.Addrs = []string{"h:1"} }},
		{"fluss://h:1?tls=true", func(c *Config) {
			c.Addrs, c.TLSName, c.TLS = []string{"h:1"}, "true", &tls.Config{}
		}},
		{"fluss://h:1?tls=skip-verify", func(c *Config) {
			c.Addrs, c.TLSName, c.TLS = []string{"h:1"}, "skip-verify", &tls.Config{InsecureSkipVerify: true}
		}},
		{"fluss://h:1?tls=true&tls_server_name=proxy.example", func(c *Config) {
			c.Addrs, c.TLSName, c.TLSServerName = []string{"h:1"}, "true", "proxy.example"
			c.TLS = &tls.Config{ServerName: "proxy.example"}
		}},
		{"fluss://h:1?tls=" + tls13 + "&tls_server_name=proxy.example", func(c *Config) {
			c.Addrs, c.TLSName, c.TLSServerName = []string{"h:1"}, tls13, "proxy.example"
			c.TLS = &tls.Config{MinVersion: tls.VersionTLS13, ServerName: "proxy.example"}
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
		{"fluss://00]0", `bad host:port "00]0"`},
		{"fluss://u:p@[::1/", `bad host:port "[::1"`},
		{"fluss://[::1,h", `bad host:port "[::1"`},
		{"fluss://::1]:1/", "bad host:port"},
		{"fluss://[localhost]:1", "only an IPv6 address goes in brackets"},
		{"fluss://h:9123/?user=admin&password=S3cret", "give SASL credentials as user:password@"},
		{"fluss://h:1/a/b", "single database name"},
		{"fluss://h:1/a%20b", `database name "a b" is invalid: ' ' is not allowed`},
		{"fluss://h:1/" + strings.Repeat("d", 201), "is longer than 200 characters"},
		{"fluss://h:1?nope=1", `unknown key "nope"; known keys: catalog, client.lookup.batch-size`},
		{"fluss://h:1?client.request-timeout=soon", `client.request-timeout="soon": want a non-negative duration such as 30 s`},
		{"fluss://h:1?client.lookup.batch-size=0", `option client.lookup.batch-size="0": must be positive`},
		{"fluss://h:1?client.writer.batch-size=big", `option client.writer.batch-size="big": not a memory size`},
		{"fluss://h:1?client.security.sasl.password=x", "user:password@"},
		{"fluss://h:1?tx=maybe", `want "batch" or "reject"`},
		{"fluss://h:1?fluss.write.sync=false", `fluss.write.sync="false": 'fluss.write.sync' = 'false' is not supported`},
		{"fluss://h:1?fluss.scan.max-rows=many", "must be a positive integer"},
		{"fluss://h:1?lookup.insert-if-not-exists=true", "is a per-query hint"},
		{"fluss://h:1?loc=Mars%2FOlympus", "unknown time zone"},
		{"fluss://h:1?connect_timeout=soon", "duration"},
		{"fluss://h:1?tx=batch&tx=reject", "given 2 times"},
		{"fluss://u@h:1", "needs a password"},
		{"fluss://:pw@h:1", "user name is required"},
		{"fluss://h:1?tls=maybe", `tls="maybe": no TLS config of that name`},
		{"fluss://h:1?tls=preferred", `tls="preferred": no TLS config of that name`},
		{"fluss://h:1?tls=", `tls="": must not be empty`},
		{"fluss://h:1?tls_ca=%2Fca.pem", "tls_ca needs TLS"},
		{"fluss://h:1?tls=false&tls_server_name=p", "tls_server_name needs TLS"},
		{"fluss://h:1?tls=true&tls_server_name=", `tls_server_name="": must not be empty`},
		{"fluss://h:1?tls=skip-verify&tls_ca=%2Fca.pem", `tls_ca="/ca.pem" has no effect`},
		{"fluss://h:1?tls=true&tls_ca=%2Fno%2Fsuch%2Fca.pem", `tls_ca="/no/such/ca.pem": open /no/such/ca.pem`},
	} {
		t.Run(tc.dsn, func(t *testing.T) {
			_, err := ParseDSN(tc.dsn)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("ParseDSN(%q) error = %v, want one containing %q", tc.dsn, err, tc.msg)
			}
		})
	}
}

// TestLongDSNError: a DSN naming a megabyte-long database fails at once
// with an error of a few hundred characters, not one holding the name.
func TestLongDSNError(t *testing.T) {
	_, err := ParseDSN("fluss://h:1/" + strings.Repeat("d", 1<<20))
	if err == nil || len(err.Error()) > 1000 || !strings.Contains(err.Error(), "(1048588 characters)") {
		t.Fatalf("ParseDSN error (%d characters): %.300v", len(fmt.Sprint(err)), err)
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
		"fluss://bob:TopSecret1@h:1?tls=nope",
		"fluss://bob:Top/Secret1@h:1?tls=true&tls_ca=%2Fmissing.pem",
		"fluss://bob:TopSecret1@h:1?tls_server_name=x",
		"bob:TopSecret1@h:1",
		"fluss://h:9123/?user=admin&password=TopSecret1",
		"fluss://h:9123/?password=TopSecret1&user=admin",
		"fluss://h:1?client.security.sasl.password=TopSecret1",
		"fluss://h:1?tx=batch&pass%77ord=Top%53ecret1",
		"fluss://h:1?secret=TopSecret1&tx=no",
		"fluss://bob:TopSecret1@[::1/",
		"fluss://bob:TopSecret1/db",
		"fluss://h:1,bob:TopSecret1",
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
	for _, s := range printed(cfg) {
		if strings.Contains(s, "TopSecret1") || !strings.Contains(s, "xxxxx") {
			t.Fatalf("a printed Config shows the password or hides its trace: %s", s)
		}
	}
	if s := fmt.Sprintf("%#v", *cfg); !strings.HasPrefix(s, "fluss.Config{") || !strings.Contains(s, `User:"bob"`) {
		t.Fatalf("%%#v = %s, want Go syntax with the fields", s)
	}
}

// printed is cfg as every fmt verb shows it, as a value, a pointer and a
// field of another struct.
func printed(cfg *Config) []string {
	holder := struct{ C Config }{*cfg}
	var out []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
		out = append(out, fmt.Sprintf(verb, cfg), fmt.Sprintf(verb, *cfg), fmt.Sprintf(verb, holder))
	}
	return out
}

func TestFormatDSNRoundTrip(t *testing.T) {
	cfg := NewConfig()
	cfg.Addrs = []string{"a:1", "[::1]:2"}
	cfg.User, cfg.Password = "u s", "p@ss/w:rd?"
	cfg.Database = "my-db"
	cfg.TxMode, cfg.LenientDDL, cfg.MultiStatements = "reject", true, true
	cfg.ConnectTimeout = 3 * time.Second
	cfg.Options["fluss.scan.max-rows"] = "10"
	cfg.TLSName, cfg.TLSServerName = "skip-verify", "proxy.example"
	cfg.TLS = &tls.Config{InsecureSkipVerify: true, ServerName: "proxy.example"}
	back, err := ParseDSN(cfg.FormatDSN())
	if err != nil {
		t.Fatalf("ParseDSN(FormatDSN()) = %v (dsn %s)", err, cfg.Redacted())
	}
	if !reflect.DeepEqual(back, cfg) {
		t.Fatalf("round trip changed the config:\n got %#v\nwant %#v", back, cfg)
	}
}

// TestParseDSNTLSCA: tls_ca replaces the system roots, adds to the roots
// of a registered config without changing it, and names a bad file.
func TestParseDSNTLSCA(t *testing.T) {
	pki, other := newTestPKI(t), newTestPKI(t)
	ca := url.QueryEscape(pki.caFile(t))
	cfg, err := ParseDSN("fluss://h:1?tls=true&tls_ca=" + ca)
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.TLS.RootCAs.Equal(pki.roots) {
		t.Fatal("tls_ca: the roots are not exactly the file's CA")
	}
	name := registerTestTLS(t, &tls.Config{RootCAs: other.roots})
	cfg, err = ParseDSN("fluss://h:1?tls=" + name + "&tls_ca=" + ca)
	if err != nil {
		t.Fatal(err)
	}
	both := other.roots.Clone()
	both.AppendCertsFromPEM(pki.caPEM)
	if !cfg.TLS.RootCAs.Equal(both) || !registeredTLS(name).RootCAs.Equal(other.roots) {
		t.Fatal("tls_ca with a registered config: want its roots plus the file's, the registered pool unchanged")
	}
	notPEM := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = ParseDSN("fluss://h:1?tls=true&tls_ca=" + url.QueryEscape(notPEM))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("tls_ca=%q: no PEM certificate", notPEM)) {
		t.Fatalf("tls_ca of a file without PEM: %v", err)
	}
}

func TestFormatDSNTLS(t *testing.T) {
	ca := newTestPKI(t).caFile(t)
	for _, tc := range []struct{ dsn, want string }{
		{"fluss://h:1?tls=false", "fluss://h:1/"},
		{"fluss://h:1?tls=true", "fluss://h:1/?tls=true"},
		{"fluss://h:1?tls=skip-verify&tls_server_name=p.example", "fluss://h:1/?tls=skip-verify&tls_server_name=p.example"},
		{"fluss://h:1?tls_ca=" + url.QueryEscape(ca) + "&tls=true", "fluss://h:1/?tls=true&tls_ca=" + url.QueryEscape(ca)},
	} {
		cfg, err := ParseDSN(tc.dsn)
		if err != nil {
			t.Fatal(err)
		}
		got := cfg.FormatDSN()
		if got != tc.want {
			t.Errorf("FormatDSN(ParseDSN(%q)) = %q, want %q", tc.dsn, got, tc.want)
		}
		if back, err := ParseDSN(got); err != nil || !sameConfig(back, cfg) {
			t.Errorf("%q does not parse back to the same config: %v", got, err)
		}
	}
	// A TLS config set in code has no name; the DSN must stay on TLS.
	cfg := NewConfig()
	cfg.Addrs = []string{"h:1"}
	cfg.TLS = &tls.Config{ServerName: "p.example"}
	if got := cfg.FormatDSN(); got != "fluss://h:1/?tls=true" {
		t.Errorf("FormatDSN of a TLS config set in code = %q", got)
	}
}

// sameConfig is reflect.DeepEqual, except that TLS root pools are compared
// with CertPool.Equal: a pool holds functions, which DeepEqual never
// finds equal.
func sameConfig(a, b *Config) bool {
	if a.TLS != nil && b.TLS != nil {
		if !a.TLS.RootCAs.Equal(b.TLS.RootCAs) {
			return false
		}
		a, b = a.Clone(), b.Clone()
		a.TLS.RootCAs, b.TLS.RootCAs = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

// fuzzTLSName is registered while FuzzParseDSN runs, so that its seeds
// reach the registered-config path.
const fuzzTLSName = "fuzz-tls"

// FuzzParseDSN: parsing never panics, and a parsed DSN formats to one that
// parses to the same Config.
func FuzzParseDSN(f *testing.F) {
	for _, s := range []string{
		"fluss://127.0.0.1:9123", "fluss://u:p@h1:1,h2:2/db?tx=reject&loc=UTC",
		"fluss://h:1?client.writer.acks=all&fluss.scan.max-rows=5", "fluss://[::1]/x", "fluss://u:p%2Fq@h/",
		"fluss://00]0", "fluss://h?tls=true", "fluss://h?tls=false", "fluss://u:p@h?tls=skip-verify&tls_server_name=p.example",
		"fluss://h?tls=" + fuzzTLSName + "&tls_server_name=p.example",
		"fluss://h?tls=true&tls_ca=" + url.QueryEscape(newTestPKI(f).caFile(f)),
	} {
		f.Add(s)
	}
	if err := RegisterTLSConfig(fuzzTLSName, &tls.Config{MinVersion: tls.VersionTLS13}); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { DeregisterTLSConfig(fuzzTLSName) })
	f.Fuzz(func(t *testing.T, dsn string) {
		cfg, err := ParseDSN(dsn)
		if err != nil {
			return
		}
		again, err := ParseDSN(cfg.FormatDSN())
		if err != nil {
			t.Fatalf("FormatDSN output %q does not parse: %v", cfg.Redacted(), err)
		}
		if !sameConfig(cfg, again) {
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
	f.Add("password", "S3", "cret", "h:9123/")
	f.Add("user", "a&password=", "", "h:9123/")
	f.Add("pass%77ord", "a%2", "0b", "[::1")
	const marker = "K7pQ"
	f.Fuzz(func(t *testing.T, user, before, after, rest string) {
		if strings.ContainsAny(user, ":@/") || strings.Contains(user+rest, marker[:2]) {
			return
		}
		cfg, err := ParseDSN("fluss://" + user + ":" + before + marker + after + "@" + rest)
		if err != nil && strings.Contains(err.Error(), marker) {
			t.Fatalf("error leaks the password: %v", err)
		}
		if err == nil && strings.Contains(cfg.Password, marker) {
			for _, s := range printed(cfg) {
				if strings.Contains(s, marker) {
					t.Fatalf("a printed Config leaks the password: %s", s)
				}
			}
		}
		// user:password with the "@host" forgotten.
		if !strings.ContainsAny(user+before+after, ",@/?#[]") {
			_, err := ParseDSN("fluss://" + user + ":" + before + marker + after + "/" + rest)
			if err != nil && strings.Contains(err.Error(), marker) {
				t.Fatalf("error leaks the password of a DSN without a host: %v", err)
			}
		}
		// The same text as the value of a key that is not a DSN key, such
		// as password=: nothing tells that it is no secret.
		// (An unescaped '&' followed by '=' starts a key, whose name
		// errors show.)
		if key := user; !strings.ContainsAny(rest, "?&#") && !strings.ContainsAny(key, "&=#") && !isDSNKey(key) &&
			!strings.Contains(before+after, "&") {
			_, err := ParseDSN("fluss://" + rest + "?" + key + "=" + before + marker + after)
			if err != nil && strings.Contains(err.Error(), marker) {
				t.Fatalf("error leaks the value of key %q: %v", key, err)
			}
		}
	})
}
