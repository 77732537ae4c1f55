package cluster

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// StartTimeout bounds how long Up waits for the whole cluster to register.
const StartTimeout = 3 * time.Minute

// Up starts the cluster described by c, or reuses it when one with the same
// settings already runs and is ready. It reports progress to w and ends with
// the line FLUSS_BOOTSTRAP=<addr>. Concurrent callers (for example several
// test binaries) are serialised by a lock file next to the cluster directory.
func Up(ctx context.Context, c Config, w io.Writer) error {
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()

	if c.runningAsConfigured() {
		if err := c.waitReady(ctx, 20*time.Second); err == nil {
			fmt.Fprintf(w, "reusing the running Fluss %s cluster in %s\n", c.Version, c.Dir)
			c.printAddrs(w)
			return nil
		}
	}
	if err := c.stopAll(); err != nil {
		return err
	}
	lib, err := c.ResolveJars(ctx)
	if err != nil {
		return err
	}
	if err := c.checkPortsFree(); err != nil {
		return err
	}
	began := time.Now()
	if err := c.startAll(ctx, lib); err != nil {
		tails := c.logTails(30)
		_ = c.stopAll()
		return fmt.Errorf("%w\n%s", err, tails)
	}
	fmt.Fprintf(w, "started Fluss %s (1 coordinator, %d tablet servers%s) in %s, data in %s\n",
		c.Version, c.Tablets, map[bool]string{true: ", SASL", false: ""}[c.SASL],
		time.Since(began).Round(100*time.Millisecond), c.Dir)
	c.printAddrs(w)
	return nil
}

// Down stops every process Up started for c and removes its directory.
func Down(c Config) error {
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	return c.stopAll()
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
	fmt.Fprintf(w, "coordinator %s lists %d of %d tablet servers\n", c.Bootstrap(), n, c.Tablets)
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

func (c Config) startAll(ctx context.Context, lib string) error {
	if err := os.RemoveAll(c.Dir); err != nil {
		return err
	}
	if err := c.writeConfigs(); err != nil {
		return err
	}
	if err := c.writeFingerprint(); err != nil {
		return err
	}
	servers := c.servers()
	// ZooKeeper first: the servers give up if it is not there within seconds.
	if err := c.start(servers[0], lib); err != nil {
		return err
	}
	if err := c.waitZooKeeper(ctx, servers[0]); err != nil {
		return err
	}
	for _, s := range servers[1:] {
		if err := c.start(s, lib); err != nil {
			return err
		}
	}
	return c.waitReady(ctx, StartTimeout)
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

// stopAll stops tablet servers first, then the coordinator, then ZooKeeper:
// the reverse of the start order, so that each can deregister cleanly.
func (c Config) stopAll() error {
	servers := c.servers()
	for i := len(servers) - 1; i >= 0; i-- {
		if err := c.stop(servers[i], 20*time.Second); err != nil {
			return err
		}
	}
	return os.RemoveAll(c.Dir)
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
			last = fmt.Errorf("coordinator lists %d of %d tablet servers", n, c.Tablets)
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
// the ports; otherwise a server would die later with a bind error in its log.
func (c Config) checkPortsFree() error {
	ports := []int{c.Port, c.zooKeeperPort()}
	for i := 0; i < c.Tablets; i++ {
		ports = append(ports, c.tabletPort(i))
		if c.SASL {
			ports = append(ports, c.saslPort(i))
		}
	}
	if c.SASL {
		ports = append(ports, c.coordinatorSASLPort())
	}
	for _, p := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			return fmt.Errorf("cluster: port %d is taken by another program (choose another base with FLUSS_PORT): %w", p, err)
		}
		l.Close()
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

func (c Config) runningAsConfigured() bool {
	b, err := os.ReadFile(c.fingerprintFile())
	return err == nil && string(b) == c.fingerprint() && c.deadServer() == ""
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
