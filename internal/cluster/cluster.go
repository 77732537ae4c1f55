package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gofluss/fluss/internal/plural"
)

// StartTimeout bounds how long Up waits for the whole cluster to register.
const StartTimeout = 3 * time.Minute

// Up starts the cluster described by c, or reuses it when it already runs,
// and waits until it is ready. It reports progress to w and ends with the
// line FLUSS_BOOTSTRAP=<addr>. started reports whether Up started the
// cluster (no server of it ran before): only then may the caller stop it
// again. Concurrent callers (for example several test binaries) are
// serialised by a lock file next to the cluster directory.
//
// Up never removes data: a stopped cluster starts again on the data of its
// last run, and a cluster directory set up with other settings (another
// version, number of tablet servers, SASL) is an error, not something to
// wipe; only Down removes a cluster's data.
//
// Up leaves the cluster to whoever owns it: one a Run started is still
// stopped when that Run's command ends. Keep is the Up that takes it over.
func Up(ctx context.Context, c Config, w io.Writer) (started bool, err error) {
	unlock, err := c.lock()
	if err != nil {
		return false, err
	}
	defer unlock()
	return c.up(ctx, w)
}

// Keep is Up for a person, as `fluss-cluster up` (make demo, make
// cluster-up) runs it: the cluster stays up after every Run that uses it,
// including one that started it, until Stop or Down.
func Keep(ctx context.Context, c Config, w io.Writer) error {
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := c.up(ctx, w); err != nil {
		return err
	}
	return c.disown()
}

// Stop stops every server of c's cluster and keeps its data, for a later
// Up to start it again on. It reports to w what it stopped.
func Stop(c Config, w io.Writer) error {
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	n, err := c.stopAll()
	if err != nil {
		return err
	}
	if n == 0 {
		fmt.Fprintf(w, "nothing was running in %s\n", c.Dir)
		return nil
	}
	fmt.Fprintf(w, "stopped %s; the data stays in %s (fluss-cluster down removes it)\n", plural.Count(n, "server"), c.Dir)
	return nil
}

// Down stops every server of c's cluster and removes its directory, data
// and all. It reports to w what it stopped and removed, and refuses to
// remove a directory that holds no cluster (FLUSS_CLUSTER_DIR pointing at
// the wrong place).
func Down(c Config, w io.Writer) error {
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	st, err := c.dirState()
	if err != nil {
		return err
	}
	if st == dirForeign {
		return fmt.Errorf("cluster: not removing %s: it holds no Fluss cluster (no %s file)", c.Dir, filepath.Base(c.fingerprintFile()))
	}
	n, err := c.stopAll()
	if err != nil {
		return err
	}
	if _, err := os.Stat(c.Dir); errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(w, "nothing was running, and there is no %s to remove\n", c.Dir)
		return nil
	}
	if err := os.RemoveAll(c.Dir); err != nil {
		return err
	}
	if n == 0 {
		fmt.Fprintf(w, "nothing was running; removed %s\n", c.Dir)
	} else {
		fmt.Fprintf(w, "stopped %s; removed %s\n", plural.Count(n, "server"), c.Dir)
	}
	return nil
}

// up is Up with the lock held.
func (c Config) up(ctx context.Context, w io.Writer) (bool, error) {
	st, err := c.dirState()
	if err != nil {
		return false, err
	}
	switch st {
	case dirOther:
		return false, c.otherSettingsError()
	case dirForeign:
		return false, fmt.Errorf("cluster: %s holds files but no Fluss cluster (no %s file): choose another FLUSS_CLUSTER_DIR", c.Dir, filepath.Base(c.fingerprintFile()))
	}
	var down []server
	for _, s := range c.servers() {
		if _, ok := c.pidOf(s); !ok {
			down = append(down, s)
		}
	}
	if len(down) == 0 {
		if err := c.waitReady(ctx, StartTimeout); err != nil {
			return false, fmt.Errorf("cluster: the cluster in %s runs but is not ready (fluss-cluster down stops it and removes its data): %w", c.Dir, err)
		}
		fmt.Fprintf(w, "reusing the running Fluss %s cluster in %s\n", c.Version, c.Dir)
		c.printAddrs(w)
		return false, nil
	}
	lib, err := c.ResolveJars(ctx)
	if err != nil {
		return false, err
	}
	if err := c.checkPortsFree(down); err != nil {
		return false, err
	}
	began := time.Now()
	fresh := st == dirEmpty
	if fresh {
		if err := c.layout(); err != nil {
			return false, err
		}
	}
	whole := len(down) == len(c.servers())
	if whole {
		// Whatever Run recorded belongs to the cluster's previous run.
		if err := c.forgetRuns(); err != nil {
			return false, err
		}
	}
	if err := c.startServers(ctx, lib, down); err != nil {
		tails := c.logTails(30)
		for i := len(down) - 1; i >= 0; i-- {
			_, _ = c.stop(down[i], 20*time.Second)
		}
		if fresh {
			_ = os.RemoveAll(c.Dir) // nothing in it but this failed start
		}
		return false, fmt.Errorf("%w\n%s", err, tails)
	}
	took := time.Since(began).Round(100 * time.Millisecond)
	switch {
	case fresh:
		fmt.Fprintf(w, "started Fluss %s (%s) in %s, data in %s\n", c.Version, c.shape(), took, c.Dir)
	case whole:
		fmt.Fprintf(w, "started Fluss %s (%s) again in %s, on its data in %s\n", c.Version, c.shape(), took, c.Dir)
	default:
		names := make([]string, len(down))
		for i, s := range down {
			names[i] = s.name
		}
		fmt.Fprintf(w, "started %s again in %s; the rest of the cluster in %s was running\n", strings.Join(names, ", "), took, c.Dir)
	}
	c.printAddrs(w)
	return whole, nil
}

// shape describes the cluster's servers for humans.
func (c Config) shape() string {
	s := "1 coordinator, " + plural.Count(c.Tablets, "tablet server")
	if c.SASL {
		s += ", SASL"
	}
	return s
}

// dirState is what a cluster directory holds.
type dirState int

const (
	dirEmpty   dirState = iota // nothing (or not there): a new cluster is laid out in it
	dirCluster                 // a cluster with the settings of c
	dirOther                   // a cluster with other settings
	dirForeign                 // files, but no settings file: not a cluster's
)

func (c Config) dirState() (dirState, error) {
	b, err := os.ReadFile(c.fingerprintFile())
	switch {
	case err == nil && string(b) == c.fingerprint():
		return dirCluster, nil
	case err == nil:
		return dirOther, nil
	case !errors.Is(err, fs.ErrNotExist):
		return 0, err
	}
	entries, err := os.ReadDir(c.Dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return dirEmpty, nil
	case err != nil:
		return 0, err
	case len(entries) == 0:
		return dirEmpty, nil
	}
	return dirForeign, nil
}

// otherSettingsError names what differs between the settings the cluster
// in c.Dir was set up with and those of c.
func (c Config) otherSettingsError() error {
	b, err := os.ReadFile(c.fingerprintFile())
	if err != nil {
		return err
	}
	// The fingerprint is "key=value ... conf=map[...]": the named settings,
	// then the server configuration, told apart only as a whole.
	named := func(fp string) []string { s, _, _ := strings.Cut(fp, " conf="); return strings.Fields(s) }
	var diffs []string
	was, now := named(string(b)), named(c.fingerprint())
	for i := 0; i < len(was) && i < len(now); i++ {
		if was[i] != now[i] {
			diffs = append(diffs, fmt.Sprintf("%s, now %s", was[i], now[i]))
		}
	}
	if len(diffs) == 0 {
		diffs = []string{"another server configuration"}
	}
	return fmt.Errorf("cluster: the cluster in %s was set up with other settings (%s): stop it and remove its data with fluss-cluster down (make cluster-down), or use another FLUSS_PORT",
		c.Dir, strings.Join(diffs, "; "))
}

// layout writes a new cluster directory. The settings file comes first, so
// that a directory this package made is always recognised as a cluster's.
func (c Config) layout() error {
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return err
	}
	if err := c.writeFingerprint(); err != nil {
		return err
	}
	return c.writeConfigs()
}

// startServers starts the given servers in start order and waits until
// the cluster is ready.
func (c Config) startServers(ctx context.Context, lib string, list []server) error {
	for _, s := range list {
		if err := c.start(s, lib); err != nil {
			return err
		}
		// ZooKeeper first: the servers give up if it is not there within seconds.
		if s.name == "zk" {
			if err := c.waitZooKeeper(ctx, s); err != nil {
				return err
			}
		}
	}
	return c.waitReady(ctx, StartTimeout)
}

// Status writes one line per server and whether the cluster is ready.
func Status(ctx context.Context, c Config, w io.Writer) error {
	running := 0
	for _, s := range c.servers() {
		if pid, ok := c.pidOf(s); ok {
			running++
			fmt.Fprintf(w, "%-12s running (pid %d)\n", s.name, pid)
		} else {
			fmt.Fprintf(w, "%-12s stopped\n", s.name)
		}
	}
	if running == 0 {
		return fmt.Errorf("cluster: not running (dir %s)", c.Dir)
	}
	n, err := liveTablets(ctx, c.Bootstrap())
	if err != nil {
		return fmt.Errorf("cluster: coordinator at %s does not answer: %w", c.Bootstrap(), err)
	}
	fmt.Fprintf(w, "coordinator %s lists %d of %s\n", c.Bootstrap(), n, plural.Count(c.Tablets, "tablet server"))
	if n < c.Tablets {
		return errNotReady
	}
	c.printAddrs(w)
	return nil
}

func (c Config) printAddrs(w io.Writer) {
	if c.SASL {
		fmt.Fprintf(w, "SASL/PLAIN users: %s\n", userList())
		fmt.Fprintf(w, "FLUSS_SASL_BOOTSTRAP=%s\n", c.SASLBootstrap())
	}
	fmt.Fprintf(w, "FLUSS_BOOTSTRAP=%s\n", c.Bootstrap())
}

// waitZooKeeper waits for ZooKeeper's port, giving up at once when the
// process has died (a bad JVM, a broken config) instead of after a minute.
func (c Config) waitZooKeeper(ctx context.Context, zk server) error {
	addr := fmt.Sprintf("127.0.0.1:%d", c.zooKeeperPort())
	deadline := time.Now().Add(60 * time.Second)
	for {
		if err := waitPort(ctx, addr, 0); err == nil {
			return nil
		}
		if _, alive := c.pidOf(zk); !alive {
			return fmt.Errorf("cluster: ZooKeeper exited during start-up (see %s)", c.LogFile(zk.name))
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("cluster: ZooKeeper did not open %s", addr)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// stopAll stops every server with a pid file in the directory (a cluster
// set up with more tablet servers than c has too), tablet servers first,
// then the coordinator, then ZooKeeper: the reverse of the start order, so
// that each can deregister cleanly. It returns how many were running, and
// forgets the Runs using the cluster, which are over with it.
func (c Config) stopAll() (int, error) {
	servers, err := c.recordedServers()
	if err != nil {
		return 0, err
	}
	n := 0
	for i := len(servers) - 1; i >= 0; i-- {
		stopped, err := c.stop(servers[i], 20*time.Second)
		if err != nil {
			return n, err
		}
		if stopped {
			n++
		}
	}
	return n, c.forgetRuns()
}

// recordedServers lists the servers that have a pid file, in start order.
func (c Config) recordedServers() ([]server, error) {
	files, err := filepath.Glob(filepath.Join(c.Dir, "*.pid"))
	if err != nil {
		return nil, err
	}
	var tablets []string
	have := map[string]bool{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".pid")
		have[name] = true
		if strings.HasPrefix(name, "tablet-") {
			tablets = append(tablets, name)
		}
	}
	sort.Strings(tablets) // at most 9 (FromEnv): tablet-0 to tablet-8
	var out []server
	for _, name := range append([]string{"zk", "coordinator"}, tablets...) {
		if have[name] {
			out = append(out, server{name: name})
		}
	}
	return out, nil
}

// waitReady polls the coordinator until it lists every tablet server and
// every expected listener accepts connections.
func (c Config) waitReady(ctx context.Context, d time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var last error
	for {
		n, err := liveTablets(ctx, c.Bootstrap())
		switch {
		case err != nil:
			last = err
		case n < c.Tablets:
			last = fmt.Errorf("coordinator lists %d of %s", n, plural.Count(c.Tablets, "tablet server"))
		default:
			if err := c.dialListeners(ctx); err == nil {
				return nil
			} else {
				last = err
			}
		}
		if dead := c.deadServer(); dead != "" {
			return fmt.Errorf("cluster: %s exited during start-up (see %s)", dead, c.LogFile(dead))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster: not ready after %s: %v", d, last)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func (c Config) dialListeners(ctx context.Context) error {
	addrs := []string{}
	for i := 0; i < c.Tablets; i++ {
		addrs = append(addrs, fmt.Sprintf("127.0.0.1:%d", c.tabletPort(i)))
		if c.SASL {
			addrs = append(addrs, fmt.Sprintf("127.0.0.1:%d", c.saslPort(i)))
		}
	}
	if c.SASL {
		addrs = append(addrs, c.SASLBootstrap())
	}
	for _, a := range addrs {
		if err := waitPort(ctx, a, 0); err != nil {
			return err
		}
	}
	return nil
}

func (c Config) deadServer() string {
	for _, s := range c.servers() {
		if _, ok := c.pidOf(s); !ok {
			return s.name
		}
	}
	return ""
}

// checkPortsFree fails early, and clearly, when another program holds one of
// the ports of the servers about to start; otherwise a server would die
// later with a bind error in its log.
func (c Config) checkPortsFree(list []server) error {
	for _, s := range list {
		for _, p := range s.ports {
			l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
			if err != nil {
				return fmt.Errorf("cluster: port %d is taken by another program (choose another base with FLUSS_PORT): %w", p, err)
			}
			l.Close()
		}
	}
	return nil
}

// waitPort waits until addr accepts a TCP connection; d = 0 tries once.
func waitPort(ctx context.Context, addr string, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		dl := net.Dialer{Timeout: time.Second}
		conn, err := dl.DialContext(ctx, "tcp", addr)
		if err == nil {
			conn.Close()
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// fingerprint identifies the settings a running cluster was started with,
// so that Up never reuses a cluster started without, say, SASL, or with an
// older server configuration. (fmt prints maps in sorted key order.)
func (c Config) fingerprint() string {
	return fmt.Sprintf("version=%s tablets=%d sasl=%t java=%s conf=%v\n", c.Version, c.Tablets, c.SASL, c.Java, c.commonConf())
}

func (c Config) fingerprintFile() string { return filepath.Join(c.Dir, "settings") }

func (c Config) writeFingerprint() error {
	return os.WriteFile(c.fingerprintFile(), []byte(c.fingerprint()), 0o644)
}

// lock takes an exclusive flock on a file beside the cluster directory
// (the directory itself is deleted by Down).
func (c Config) lock() (func(), error) {
	if err := os.MkdirAll(filepath.Dir(c.Dir), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(c.Dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
