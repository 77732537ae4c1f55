package cluster

import (
	"context"
	"fmt"
	"syscall"
	"time"
)

// Fault injection for tests: kill one server of a running cluster the
// hard way and start it again on its own data.

// serverNamed returns the server called name ("coordinator", "tablet-0", ...).
func (c Config) serverNamed(name string) (server, error) {
	for _, s := range c.servers() {
		if s.name == name {
			return s, nil
		}
	}
	return server{}, fmt.Errorf("cluster: no server named %q", name)
}

// TabletName is the server name of the tablet server with the given id.
func TabletName(id int32) string { return fmt.Sprintf("tablet-%d", id) }

// Kill sends SIGKILL to one server (no shutdown hooks, no deregistration,
// like a crash) and waits until it is gone.
func (c Config) Kill(name string) error {
	s, err := c.serverNamed(name)
	if err != nil {
		return err
	}
	pid, ok := c.pidOf(s)
	if !ok {
		return fmt.Errorf("cluster: %s is not running", name)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		return fmt.Errorf("cluster: killing %s (pid %d): %w", name, pid, err)
	}
	if !c.waitGone(pid, 10*time.Second) {
		return fmt.Errorf("cluster: %s (pid %d) survived SIGKILL", name, pid)
	}
	return nil
}

// Restart starts a stopped server again with its previous data and waits
// until the cluster is ready (every tablet server registered).
func (c Config) Restart(ctx context.Context, name string) error {
	s, err := c.serverNamed(name)
	if err != nil {
		return err
	}
	if _, ok := c.pidOf(s); ok {
		return fmt.Errorf("cluster: %s is still running", name)
	}
	if err := c.start(s, c.LibDir()); err != nil {
		return err
	}
	return c.waitReady(ctx, StartTimeout)
}
