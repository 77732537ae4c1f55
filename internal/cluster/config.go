package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// DefaultFlussVersion is the one place the server version is pinned. It is
// the newest Fluss release on Maven Central (1.0.x has not been published
// there; only 0.9.1-incubating of the org.apache.fluss line is).
const DefaultFlussVersion = "0.9.1-incubating"

// SASLUsers are the PLAIN users configured on the SASL listener when SASL is
// enabled. They are test credentials for a loopback cluster, nothing more.
var SASLUsers = map[string]string{
	SuperUser:   "admin-secret",
	LimitedUser: "alice-secret",
}

// SuperUser is the SASL user with unrestricted access when the authorizer
// is on; LimitedUser starts with no rights and gets only what ACLs grant.
const (
	SuperUser   = "admin"
	LimitedUser = "alice"
)

// Config describes one local cluster. The zero value is not useful; use
// FromEnv or fill every field.
type Config struct {
	Version  string // Fluss server version on Maven Central
	Port     int    // coordinator's plaintext port; others are derived from it
	Tablets  int    // number of tablet servers
	SASL     bool   // add a SASL/PLAIN listener to every server
	Dir      string // per-cluster directory: configs, data, logs, pid files
	JarCache string // directory that holds resolved jars, one folder per version
	Java     string // java executable
}

// FromEnv builds a Config from the environment with the documented defaults.
func FromEnv() (Config, error) {
	c := Config{
		Version: envOr("FLUSS_VERSION", DefaultFlussVersion),
		Port:    9123,
		Tablets: 1,
		SASL:    os.Getenv("FLUSS_SASL") == "1",
	}
	var err error
	if c.Port, err = envInt("FLUSS_PORT", c.Port, 1024, 65000); err != nil {
		return c, err
	}
	if c.Tablets, err = envInt("FLUSS_TABLETS", c.Tablets, 1, 9); err != nil {
		return c, err
	}
	c.Dir = envOr("FLUSS_CLUSTER_DIR", filepath.Join(os.TempDir(), "fluss-go-sql-cluster-"+strconv.Itoa(c.Port)))
	if c.Dir, err = filepath.Abs(c.Dir); err != nil {
		return c, err
	}
	if c.JarCache, err = defaultJarCache(); err != nil {
		return c, err
	}
	c.Java = "java"
	if home := os.Getenv("JAVA_HOME"); home != "" {
		c.Java = filepath.Join(home, "bin", "java")
	}
	return c, nil
}

func defaultJarCache() (string, error) {
	if dir := os.Getenv("FLUSS_JAR_CACHE"); dir != "" {
		return filepath.Abs(dir)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cluster: no cache directory for jars (set FLUSS_JAR_CACHE): %w", err)
	}
	return filepath.Join(base, "fluss-go-sql", "jars"), nil
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func envInt(key string, def, min, max int) (int, error) {
	s := os.Getenv(key)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < min || n > max {
		return 0, fmt.Errorf("cluster: %s=%q: want an integer from %d to %d", key, s, min, max)
	}
	return n, nil
}

// Port layout, all derived from the coordinator port so that two clusters
// with different FLUSS_PORT values never collide.
func (c Config) tabletPort(i int) int     { return c.Port + 1 + i }
func (c Config) saslPort(i int) int       { return c.Port + 21 + i }
func (c Config) coordinatorSASLPort() int { return c.Port + 20 }
func (c Config) zooKeeperPort() int       { return c.Port + 40 }

// Bootstrap is the plaintext address clients connect to.
func (c Config) Bootstrap() string { return fmt.Sprintf("127.0.0.1:%d", c.Port) }

// SASLBootstrap is the SASL listener of the coordinator, or "" without SASL.
func (c Config) SASLBootstrap() string {
	if !c.SASL {
		return ""
	}
	return fmt.Sprintf("127.0.0.1:%d", c.coordinatorSASLPort())
}

func (c Config) replicationFactor() int {
	return min(c.Tablets, 3)
}

// server is one JVM of the cluster.
type server struct {
	name      string // zk, coordinator, tablet-0, ...
	mainClass string
	heap      string
	args      []string // program arguments after the main class
	ports     []int    // the ports it listens on
}

// servers lists the JVMs of the cluster in start order.
func (c Config) servers() []server {
	coordPorts := []int{c.Port}
	if c.SASL {
		coordPorts = append(coordPorts, c.coordinatorSASLPort())
	}
	out := []server{
		{name: "zk", mainClass: zooKeeperMain, heap: "256m", args: []string{filepath.Join(c.Dir, "zk", "zookeeper.properties")}, ports: []int{c.zooKeeperPort()}},
		{name: "coordinator", mainClass: coordinatorMain, heap: "512m", args: []string{"--configDir", filepath.Join(c.Dir, "coordinator")}, ports: coordPorts},
	}
	for i := 0; i < c.Tablets; i++ {
		name := fmt.Sprintf("tablet-%d", i)
		ports := []int{c.tabletPort(i)}
		if c.SASL {
			ports = append(ports, c.saslPort(i))
		}
		out = append(out, server{name: name, mainClass: tabletMain, heap: "768m", args: []string{"--configDir", filepath.Join(c.Dir, name)}, ports: ports})
	}
	return out
}

const (
	zooKeeperMain   = "org.apache.fluss.shaded.zookeeper3.org.apache.zookeeper.server.quorum.QuorumPeerMain"
	coordinatorMain = "org.apache.fluss.server.coordinator.CoordinatorServer"
	tabletMain      = "org.apache.fluss.server.tablet.TabletServer"
)

// writeConfigs lays out the cluster directory: one folder per server with
// its configuration, data and temp directories.
func (c Config) writeConfigs() error {
	zkDir := filepath.Join(c.Dir, "zk")
	zk := map[string]string{
		"dataDir":           filepath.Join(zkDir, "data"),
		"clientPort":        strconv.Itoa(c.zooKeeperPort()),
		"clientPortAddress": "127.0.0.1",
		"maxClientCnxns":    "0",
		// The shaded ZooKeeper has no Jetty; its admin server would fail.
		"admin.enableServer": "false",
		"tickTime":           "2000",
	}
	if err := writeKV(filepath.Join(zkDir, "zookeeper.properties"), zk, "="); err != nil {
		return err
	}
	if err := writeKV(filepath.Join(c.Dir, "coordinator", "server.yaml"), c.coordinatorConf(), ": "); err != nil {
		return err
	}
	for i := 0; i < c.Tablets; i++ {
		name := fmt.Sprintf("tablet-%d", i)
		if err := writeKV(filepath.Join(c.Dir, name, "server.yaml"), c.tabletConf(i), ": "); err != nil {
			return err
		}
	}
	return os.MkdirAll(filepath.Join(c.Dir, "remote"), 0o755)
}

func (c Config) commonConf() map[string]string {
	m := map[string]string{
		"zookeeper.address":   fmt.Sprintf("127.0.0.1:%d", c.zooKeeperPort()),
		"zookeeper.path.root": "/fluss",
		"remote.data.dir":     filepath.Join(c.Dir, "remote"),
		// Small thread pools: the whole cluster shares two cores with the tests.
		"netty.server.num-network-threads": "1",
		"netty.server.num-worker-threads":  "3",
		"default.bucket.number":            "1",
		"default.replication.factor":       strconv.Itoa(c.replicationFactor()),
		"kv.snapshot.interval":             "1s",
		// Small segments, tiered every second, so that tests can read
		// log segments from remote.data.dir within seconds.
		"remote.log.task-interval-duration": "1s",
		"log.segment.file-size":             "1mb",
	}
	if c.replicationFactor() > 1 {
		// Fail over in seconds, as the fault suite expects: the
		// coordinator sees a killed server when its ZooKeeper session
		// expires (60 s by default), and acks=all writes wait until a dead
		// follower leaves the in-sync replicas (30 s by default). ZooKeeper
		// grants sessions of 2 to 20 ticks (4-40 s here).
		m["zookeeper.client.session-timeout"] = "6s"
		m["log.replica.max-lag-time"] = "10s"
	}
	if c.replicationFactor() >= 3 {
		// With the default of 1, a bucket whose followers fell behind
		// (new tables on a loaded machine do) acknowledges writes held by
		// the leader alone, and killing it loses them: seen in the fault
		// suite. Two keeps every acknowledged write on two servers.
		m["log.replica.min-in-sync-replicas-number"] = "2"
	}
	if c.SASL {
		m["security.protocol.map"] = "SASL:SASL"
		m["security.sasl.enabled.mechanisms"] = "PLAIN"
		m["security.sasl.plain.jaas.config"] = jaasConfig()
		// With SASL the authorizer is on, so that ACL procedures can be
		// tested: admin and every plaintext client (principal
		// User:ANONYMOUS, which includes the servers' own internal
		// traffic) are super users; alice gets only what ACLs grant her.
		m["authorizer.enabled"] = "true"
		m["super.users"] = "User:" + SuperUser + ";User:ANONYMOUS"
	}
	return m
}

func sortedUsers() []string {
	users := make([]string, 0, len(SASLUsers))
	for u := range SASLUsers {
		users = append(users, u)
	}
	sort.Strings(users)
	return users
}

// userList renders the SASL users as "user/password" pairs for humans.
func userList() string {
	var parts []string
	for _, u := range sortedUsers() {
		parts = append(parts, u+"/"+SASLUsers[u])
	}
	return strings.Join(parts, ", ")
}

func jaasConfig() string {
	var b strings.Builder
	b.WriteString("org.apache.fluss.security.auth.sasl.plain.PlainLoginModule required")
	for _, u := range sortedUsers() {
		fmt.Fprintf(&b, " user_%s=%q", u, SASLUsers[u])
	}
	b.WriteString(";")
	return b.String()
}

func (c Config) listeners(plain, sasl int) string {
	l := fmt.Sprintf("FLUSS://127.0.0.1:%d", plain)
	if c.SASL {
		l += fmt.Sprintf(", SASL://127.0.0.1:%d", sasl)
	}
	return l
}

func (c Config) coordinatorConf() map[string]string {
	m := c.commonConf()
	m["bind.listeners"] = c.listeners(c.Port, c.coordinatorSASLPort())
	return m
}

func (c Config) tabletConf(i int) map[string]string {
	m := c.commonConf()
	m["bind.listeners"] = c.listeners(c.tabletPort(i), c.saslPort(i))
	m["tablet-server.id"] = strconv.Itoa(i)
	m["data.dir"] = filepath.Join(c.Dir, fmt.Sprintf("tablet-%d", i), "data")
	return m
}

// writeKV writes a key/value file in sorted key order. Fluss reads
// server.yaml with a line parser ("key: value"), ZooKeeper reads Java
// properties ("key=value"); both accept this shape.
func writeKV(path string, kv map[string]string, sep string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		if strings.ContainsAny(kv[k], "#\n") {
			return fmt.Errorf("cluster: value of %s may not contain '#' or a newline", k)
		}
		b.WriteString(k + sep + kv[k] + "\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
