package fluss

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/planner"
)

// Defaults of a Config, as NewConfig sets them.
const (
	DefaultDatabase       = "fluss"
	DefaultCatalog        = "fluss_catalog"
	DefaultPort           = 9123
	DefaultConnectTimeout = 10 * time.Second
	DefaultRequestTimeout = 30 * time.Second
)

// Config is a parsed DSN. Build one with NewConfig or ParseDSN; FormatDSN
// turns it back into a DSN.
//
//	fluss://[user:password@]host:port[,host:port...]/[database]?key=value&...
//
// A user name (and password) in the DSN means SASL/PLAIN authentication.
type Config struct {
	// Addrs are the bootstrap servers, host:port each.
	Addrs []string
	// User and Password are the SASL/PLAIN credentials; empty User means
	// no authentication. Password never appears in errors, String or any
	// fmt verb (see Format).
	User     string
	Password string
	// Database is the current database of new connections (USE changes it
	// per connection).
	Database string
	// Catalog is the catalog name that three-part names such as
	// fluss_catalog.db.t may carry (key "catalog").
	Catalog string
	// Location is the zone for TIMESTAMP_LTZ values and timestamp text
	// (key "loc", an IANA name; default UTC).
	Location *time.Location
	// TxMode is "batch" (BeginTx opens a non-atomic write batch) or
	// "reject" (BeginTx fails). Key "tx".
	TxMode string
	// LenientDDL accepts MySQL-flavoured DDL types (key "ddl=lenient").
	LenientDDL bool
	// MultiStatements lets one Exec run several ';'-separated statements.
	MultiStatements bool
	// ConnectTimeout bounds dialing and the handshake of one connection.
	ConnectTimeout time.Duration
	// RequestTimeout bounds calls whose context has no deadline.
	RequestTimeout time.Duration
	// ClientID is reported to the servers (key "client_id").
	ClientID string
	// TLS, when set, wraps every connection in TLS, for a TLS-terminating
	// proxy in front of the servers (Fluss has no TLS listener of its own).
	// ParseDSN fills it from the three fields below; NewConnector callers
	// may set it directly, and it then wins over them. FormatDSN cannot
	// write a config built in code: with TLSName empty it writes tls=true,
	// so that a formatted DSN never falls back to plaintext.
	TLS *tls.Config
	// TLSName is the DSN's tls value: "true" (verify against the system
	// roots), "skip-verify" or a name given to RegisterTLSConfig; empty
	// means no TLS. When TLS is nil, NewConnector builds it from TLSName,
	// TLSCAFile and TLSServerName as ParseDSN does.
	TLSName string
	// TLSCAFile is the DSN's tls_ca: a PEM file whose certificates become
	// the trusted roots (instead of the system's, or besides those of a
	// registered config).
	TLSCAFile string
	// TLSServerName is the DSN's tls_server_name: the name sent as SNI and
	// verified in place of each server's host.
	TLSServerName string
	// Dialer, when set, opens every network connection instead of
	// net.Dialer: for SOCKS or SSH tunnels, or to reach servers through
	// per-server proxies. It has no DSN form; set it on a parsed Config
	// and use NewConnector.
	Dialer func(ctx context.Context, network, addr string) (net.Conn, error)
	// Tracer receives trace events of the connector's native client and
	// of its statements: any of the hook interfaces of flussrpc
	// (ConnectTracer, RequestTracer, WriteTracer, ...) and engine
	// (ExecuteTracer, PlanTracer) that it implements, as
	// flussrpc.Config.Tracer. github.com/gofluss/fluss/otel makes one for
	// OpenTelemetry. It has no DSN form, like Dialer.
	Tracer any
	// Logger receives what the native client notices on its own (broken
	// connections, failed dials, write retries); nil logs nothing. It has
	// no DSN form.
	Logger *slog.Logger
	// Options holds Fluss option keys given in the DSN: client.* keys
	// configure the native client, scan.*, lookup.*, sink.* and fluss.*
	// keys are session defaults that SET and hints override.
	Options map[string]string
}

// NewConfig returns a Config with every default set and no address.
func NewConfig() *Config {
	return &Config{
		Database:       DefaultDatabase,
		Catalog:        DefaultCatalog,
		Location:       time.UTC,
		TxMode:         "batch",
		ConnectTimeout: DefaultConnectTimeout,
		RequestTimeout: DefaultRequestTimeout,
		Options:        map[string]string{},
	}
}

// Clone returns a deep copy.
func (c *Config) Clone() *Config {
	out := *c
	out.Addrs = append([]string(nil), c.Addrs...)
	out.Options = make(map[string]string, len(c.Options))
	for k, v := range c.Options {
		out.Options[k] = v
	}
	if c.TLS != nil {
		out.TLS = c.TLS.Clone()
	}
	return &out
}

// DSNError is a malformed DSN. Its message never contains the password.
type DSNError struct {
	// DSN is the DSN with "xxxxx" for the password and for the value of
	// every key the DSN does not know (password=..., a misspelt key).
	DSN string
	Msg string
}

// Error renders the problem and the redacted DSN.
// A DSN of more than 200 characters shows only its start (and length).
func (e *DSNError) Error() string {
	dsn := strconv.Quote(e.DSN)
	if len(e.DSN) > 200 {
		dsn = fmt.Sprintf("%q… (%d characters)", e.DSN[:200], len(e.DSN))
	}
	return fmt.Sprintf("fluss: invalid DSN %s: %s", dsn, e.Msg)
}

// driverKeys are the DSN keys of the driver itself, with what they set.
var driverKeys = map[string]func(*Config, string) error{
	"catalog":          func(c *Config, v string) error { c.Catalog = v; return nonEmpty(v) },
	"loc":              setLocation,
	"tx":               setTxMode,
	"ddl":              setDDL,
	"multi_statements": func(c *Config, v string) error { return setBool(&c.MultiStatements, v) },
	"connect_timeout":  func(c *Config, v string) error { return setDuration(&c.ConnectTimeout, v) },
	"request_timeout":  func(c *Config, v string) error { return setDuration(&c.RequestTimeout, v) },
	// The Java client's name for request_timeout, so that its
	// configuration loads; FormatDSN writes request_timeout.
	"client.request-timeout": setJavaDuration,
	"client_id":              func(c *Config, v string) error { c.ClientID = v; return nil },
	"tls":                    setTLSName,
	"tls_ca":                 func(c *Config, v string) error { c.TLSCAFile = v; return nonEmpty(v) },
	"tls_server_name":        func(c *Config, v string) error { c.TLSServerName = v; return nonEmpty(v) },
}

// optionKeys are the Fluss option keys accepted in a DSN. Keys of the
// scan.*, lookup.* and sink.* families follow Flink's connector options;
// fluss.* keys are the driver's own.
var optionKeys = []string{
	"client.writer.acks",
	"client.writer.batch-size",
	"client.writer.batch-timeout",
	"client.writer.buffer.memory-size",
	"client.writer.buffer.wait-timeout",
	"client.writer.bucket.no-key-assigner",
	"client.writer.delivery-timeout",
	"client.writer.dynamic-create-partition.enabled",
	"client.writer.enable-idempotence",
	"client.writer.max-inflight-requests-per-bucket",
	"client.writer.request-max-size",
	"client.writer.retries",
	"client.scanner.log.fetch.max-bytes",
	"client.scanner.log.fetch.max-bytes-for-bucket",
	"client.scanner.log.fetch.min-bytes",
	"client.scanner.log.fetch.wait-max-time",
	"client.scanner.log.max-poll-records",
	"client.lookup.batch-size",
	"client.lookup.max-inflight-requests",
	"client.lookup.max-retries",
	"fluss.client-filter",
	"fluss.complex-types",
	"fluss.engine.memory-limit",
	"fluss.engine.temp-directory",
	"fluss.engine.threads",
	"fluss.exact-rows-affected",
	"fluss.merge-mode",
	"fluss.scan.bounded",
	"fluss.scan.max-rows",
	"fluss.scan.poll-timeout",
	"fluss.scan.start-offsets",
	"fluss.write.sync",
	"lookup.insert-if-not-exists",
	"scan.startup.mode",
	"scan.startup.timestamp",
	"sink.ignore-delete",
}

// KnownKeys lists every key a DSN may carry, sorted.
func KnownKeys() []string {
	keys := append([]string(nil), optionKeys...)
	for k := range driverKeys {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func isOptionKey(k string) bool {
	i := sort.SearchStrings(sortedOptionKeys, k)
	return i < len(sortedOptionKeys) && sortedOptionKeys[i] == k
}

var sortedOptionKeys = func() []string {
	s := append([]string(nil), optionKeys...)
	sort.Strings(s)
	return s
}()

// ParseDSN parses a DSN of the form
// fluss://[user:password@]host:port[,host:port...]/[database]?key=value&...
// A host without a port gets DefaultPort.
func ParseDSN(dsn string) (*Config, error) {
	cfg := NewConfig()
	fail := func(format string, args ...any) (*Config, error) {
		return nil, &DSNError{DSN: redactDSN(dsn), Msg: scrubSecret(dsn, fmt.Sprintf(format, args...))}
	}
	rest, ok := strings.CutPrefix(dsn, "fluss://")
	if !ok {
		return fail("it must start with fluss://")
	}
	rest, query, _ := strings.Cut(rest, "?")
	// Userinfo ends at the last '@' before the path: passwords may hold '@'
	// only percent-encoded, but be lenient about the host part.
	hostPart, path, _ := strings.Cut(rest, "/")
	if at := strings.LastIndex(hostPart, "@"); at >= 0 {
		if err := cfg.parseUserinfo(hostPart[:at]); err != nil {
			return fail("%v", err)
		}
		hostPart = hostPart[at+1:]
	}
	addrs, err := parseHosts(hostPart)
	if err != nil {
		return fail("%v", err)
	}
	cfg.Addrs = addrs
	if path != "" {
		db, err := url.PathUnescape(path)
		if err != nil || strings.Contains(db, "/") {
			return fail("the path must be a single database name, got %.60q", path)
		}
		if err := schema.CheckName("database", db); err != nil {
			return fail("%v", err)
		}
		cfg.Database = db
	}
	if err := cfg.parseQuery(query); err != nil {
		return fail("%v", err)
	}
	if err := cfg.resolveTLS(); err != nil {
		return fail("%v", err)
	}
	return cfg, nil
}

func (c *Config) parseUserinfo(info string) error {
	user, pass, hasPass := strings.Cut(info, ":")
	var err error
	if c.User, err = url.PathUnescape(user); err != nil {
		return errors.New("the user name is not valid percent-encoding")
	}
	if c.Password, err = url.PathUnescape(pass); err != nil {
		return errors.New("the password is not valid percent-encoding")
	}
	if c.User == "" {
		return errors.New("a user name is required before '@'")
	}
	if !hasPass || c.Password == "" {
		return errors.New("SASL/PLAIN needs a password (user:password@)")
	}
	return nil
}

// parseHosts splits the host list itself: net/url does not promise to
// accept several hosts in one authority.
func parseHosts(s string) ([]string, error) {
	if s == "" {
		return nil, errors.New("no host given")
	}
	var out []string
	for _, h := range strings.Split(s, ",") {
		host, port, err := net.SplitHostPort(h)
		if err != nil {
			// Without a port, the host is a bare name or a whole
			// bracketed address: "[::1" must not pass as ::1.
			switch {
			case strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]"):
				host = h[1 : len(h)-1]
			case !strings.ContainsAny(h, ":[]"):
				host = h
			default:
				return nil, fmt.Errorf("bad host:port %q", h)
			}
			port = strconv.Itoa(DefaultPort)
		}
		if strings.HasPrefix(h, "[") && !strings.Contains(host, ":") {
			return nil, fmt.Errorf("only an IPv6 address goes in brackets, got %q", h)
		}
		if !validHost(host) {
			return nil, fmt.Errorf("bad or empty host in %q", h)
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("bad port in %q", h)
		}
		out = append(out, net.JoinHostPort(host, port))
	}
	return out, nil
}

// validHost accepts a DNS name or an IP address.
func validHost(h string) bool {
	if h == "" {
		return false
	}
	if net.ParseIP(h) != nil {
		return true
	}
	for _, r := range h {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_') {
			return false
		}
	}
	return true
}

func (c *Config) parseQuery(query string) error {
	if query == "" {
		return nil
	}
	values, err := url.ParseQuery(query)
	if err != nil {
		return fmt.Errorf("bad query string: %v", err)
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		vs := values[k]
		if len(vs) != 1 {
			return fmt.Errorf("key %q is given %s", k, plural.Count(len(vs), "time"))
		}
		if err := c.setKey(k, vs[0]); err != nil {
			return err
		}
	}
	return nil
}

func (c *Config) setKey(k, v string) error {
	if set, ok := driverKeys[k]; ok {
		if err := set(c, v); err != nil {
			return fmt.Errorf("%s=%q: %v", k, v, err)
		}
		return nil
	}
	if isOptionKey(k) {
		// The value must be one SET would accept, so that a DSN cannot
		// hold a default the session refuses (fluss.write.sync=false).
		var pe *planner.Error
		if err := planner.CheckOption(k, v); errors.As(err, &pe) {
			return fmt.Errorf("%s=%q: %s", k, v, pe.Msg)
		}
		if err := flussrpc.CheckOption(k, v); err != nil {
			return err
		}
		c.Options[k] = v
		return nil
	}
	if strings.HasPrefix(k, "client.security.") || k == "user" || k == "username" || k == "password" {
		return fmt.Errorf("unknown key %q: give SASL credentials as user:password@ in the DSN", k)
	}
	return fmt.Errorf("unknown key %q; known keys: %s", k, strings.Join(KnownKeys(), ", "))
}

func nonEmpty(v string) error {
	if v == "" {
		return errors.New("must not be empty")
	}
	return nil
}

func setLocation(c *Config, v string) error {
	loc, err := time.LoadLocation(v)
	if err != nil {
		return fmt.Errorf("unknown time zone")
	}
	c.Location = loc
	return nil
}

func setTxMode(c *Config, v string) error {
	if v != "batch" && v != "reject" {
		return errors.New(`want "batch" or "reject"`)
	}
	c.TxMode = v
	return nil
}

func setDDL(c *Config, v string) error {
	switch v {
	case "strict":
		c.LenientDDL = false
	case "lenient":
		c.LenientDDL = true
	default:
		return errors.New(`want "strict" or "lenient"`)
	}
	return nil
}

// setTLSName records the tls value; resolveTLS interprets it once the
// other tls keys are known. tls=false is the default and kept as "".
func setTLSName(c *Config, v string) error {
	if v == tlsOff {
		v = ""
	} else if err := nonEmpty(v); err != nil {
		return err
	}
	c.TLSName = v
	return nil
}

func setBool(dst *bool, v string) error {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return errors.New("want true or false")
	}
	*dst = b
	return nil
}

// setJavaDuration sets the request timeout from a Java-style duration.
func setJavaDuration(c *Config, v string) error {
	d, err := flussrpc.ParseJavaDuration(v)
	if err != nil || d < 0 {
		return errors.New("want a non-negative duration such as 30 s")
	}
	c.RequestTimeout = d
	return nil
}

func setDuration(dst *time.Duration, v string) error {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return errors.New("want a non-negative duration such as 5s")
	}
	*dst = d
	return nil
}

// FormatDSN renders the Config as a DSN that ParseDSN reads back to an
// equal Config. Keys at their default value are left out.
func (c *Config) FormatDSN() string {
	return c.format(c.Password)
}

// Redacted is FormatDSN with the password replaced by "xxxxx"; use it for
// logs and messages.
func (c *Config) Redacted() string {
	if c.Password == "" {
		return c.format("")
	}
	return c.format("xxxxx")
}

// String is Redacted, so that printing a Config never shows the password.
func (c *Config) String() string { return c.Redacted() }

// Format makes every way of printing a Config or *Config safe: %#v prints
// the fields as Go syntax with the password replaced by "xxxxx", %q the
// quoted Redacted DSN, and every other verb (%v, %+v, %s) Redacted. Without
// it %#v, and %v of a Config value, printed the password.
func (c Config) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && f.Flag('#'):
		if c.Password != "" {
			c.Password = "xxxxx"
		}
		type config Config // the same fields, without this method
		io.WriteString(f, "fluss.Config"+strings.TrimPrefix(fmt.Sprintf("%#v", config(c)), "fluss.config"))
	case verb == 'q':
		io.WriteString(f, strconv.Quote(c.Redacted()))
	default:
		io.WriteString(f, c.Redacted())
	}
}

func (c *Config) format(password string) string {
	var b strings.Builder
	b.WriteString("fluss://")
	if c.User != "" {
		b.WriteString(url.PathEscape(c.User))
		b.WriteString(":")
		b.WriteString(url.PathEscape(password))
		b.WriteString("@")
	}
	b.WriteString(strings.Join(c.Addrs, ","))
	b.WriteString("/")
	if c.Database != DefaultDatabase {
		b.WriteString(url.PathEscape(c.Database))
	}
	if q := c.query().Encode(); q != "" {
		b.WriteString("?" + q)
	}
	return b.String()
}

func (c *Config) query() url.Values {
	q := url.Values{}
	def := NewConfig()
	if c.Catalog != def.Catalog {
		q.Set("catalog", c.Catalog)
	}
	if c.Location != nil && c.Location.String() != time.UTC.String() {
		q.Set("loc", c.Location.String())
	}
	if c.TxMode != def.TxMode {
		q.Set("tx", c.TxMode)
	}
	if c.LenientDDL {
		q.Set("ddl", "lenient")
	}
	if c.MultiStatements {
		q.Set("multi_statements", "true")
	}
	if c.ConnectTimeout != def.ConnectTimeout {
		q.Set("connect_timeout", c.ConnectTimeout.String())
	}
	if c.RequestTimeout != def.RequestTimeout {
		q.Set("request_timeout", c.RequestTimeout.String())
	}
	if c.ClientID != "" {
		q.Set("client_id", c.ClientID)
	}
	c.tlsQuery(q)
	for k, v := range c.Options {
		q.Set(k, v)
	}
	return q
}

// tlsQuery adds the tls keys. A TLS config set in code has no DSN name;
// tls=true keeps the formatted DSN on TLS, verifying against the system
// roots, rather than silently dropping to plaintext.
func (c *Config) tlsQuery(q url.Values) {
	switch {
	case c.TLSName != "":
		q.Set("tls", c.TLSName)
	case c.TLS != nil:
		q.Set("tls", tlsVerify)
	}
	if c.TLSCAFile != "" {
		q.Set("tls_ca", c.TLSCAFile)
	}
	if c.TLSServerName != "" {
		q.Set("tls_server_name", c.TLSServerName)
	}
}

// dsnSecrets returns the byte ranges of a raw DSN, which may not even
// parse, that may hold a secret: everything between the first ':' after
// the scheme and the LAST '@' (a password may hold '/', '?' or '@'), a
// port that is no number when there is no '@', and the
// value of every query key that is not a DSN key (password=..., a
// misspelt key), since nothing tells what such a value holds, and every
// unknown piece without '='. Hiding too
// much (an '@' in a query value) is harmless where hiding too little would
// not be. The ranges are sorted and do not overlap.
func dsnSecrets(dsn string) [][2]int {
	var spans [][2]int
	base := 0
	if i := strings.Index(dsn, "//"); i >= 0 {
		base = i + 2
	}
	rest := dsn[base:]
	at := strings.LastIndex(rest, "@")
	if colon := strings.Index(rest, ":"); at >= 0 && colon >= 0 && colon+1 < at {
		spans = append(spans, [2]int{base + colon + 1, base + at})
	}
	if at < 0 {
		// user:password without "@host" reads as host:port; a port that
		// is no number may be that password.
		hosts, _, _ := strings.Cut(rest, "/")
		hosts, _, _ = strings.Cut(hosts, "?")
		off := base
		for _, h := range strings.Split(hosts, ",") {
			start := strings.LastIndex(h, "]") + 1 // past an IPv6 address
			if c := strings.Index(h[start:], ":"); c >= 0 && strings.Trim(h[start+c+1:], "0123456789") != "" {
				spans = append(spans, [2]int{off + start + c + 1, off + len(h)})
			}
			off += len(h) + 1
		}
	}
	if q := strings.Index(dsn, "?"); q >= 0 {
		off := q + 1
		for _, kv := range strings.Split(dsn[q+1:], "&") {
			k, v, ok := strings.Cut(kv, "=")
			switch {
			case isDSNKey(k):
			case ok && v != "":
				spans = append(spans, [2]int{off + len(k) + 1, off + len(kv)})
			case !ok && kv != "":
				// A piece without '=' may be the tail of a value with
				// an unescaped '&' in it. (Key names stay visible, so
				// that a misspelt key can be found.)
				spans = append(spans, [2]int{off, off + len(kv)})
			}
			off += len(kv) + 1
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var merged [][2]int
	for _, sp := range spans {
		if n := len(merged); n > 0 && sp[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], sp[1])
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// isDSNKey reports whether the raw (still escaped) query key k is one the
// DSN knows, whose value is therefore no secret.
func isDSNKey(k string) bool {
	k, err := url.QueryUnescape(k)
	if err != nil {
		return false
	}
	_, driver := driverKeys[k]
	return driver || isOptionKey(k)
}

// redactDSN replaces whatever may be a secret in a raw DSN with "xxxxx".
func redactDSN(dsn string) string {
	var b strings.Builder
	last := 0
	for _, sp := range dsnSecrets(dsn) {
		b.WriteString(dsn[last:sp[0]])
		b.WriteString("xxxxx")
		last = sp[1]
	}
	b.WriteString(dsn[last:])
	return b.String()
}

// scrubSecret removes whatever may be a secret in dsn from a message that
// may quote parts of the DSN (an unknown key, a bad value), raw or
// %q-escaped.
func scrubSecret(dsn, msg string) string {
	for _, sp := range dsnSecrets(dsn) {
		secret := dsn[sp[0]:sp[1]]
		// An unescaped '/', '?', '&' or '=' in a password makes the parser
		// cut it apart and quote pieces of it; hide every piece, and the
		// whole, also as it reads once unescaped.
		pieces := strings.FieldsFunc(secret, func(r rune) bool { return strings.ContainsRune("/?&=,@", r) })
		if u, err := url.QueryUnescape(secret); err == nil {
			pieces = append(pieces, u)
		}
		pieces = append(pieces, secret)
		// Longest first: hiding a short piece first could break up a
		// longer one that holds it.
		sort.Slice(pieces, func(i, j int) bool { return len(pieces[i]) > len(pieces[j]) })
		for _, p := range pieces {
			if len(p) < 3 {
				continue
			}
			quoted := strconv.Quote(p)
			msg = strings.ReplaceAll(msg, quoted[1:len(quoted)-1], "xxxxx")
			msg = strings.ReplaceAll(msg, p, "xxxxx")
		}
	}
	return msg
}
