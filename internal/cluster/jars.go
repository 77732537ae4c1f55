package cluster

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// dependencyPlugin is pinned so the resolution does not depend on whatever
// plugin version the local Maven would pick.
const dependencyPlugin = "org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy"

// artifacts lists what the servers need on their classpath: the fluss-server
// jar (a shaded jar that already bundles ZooKeeper, Netty, RocksDB and the
// rest) and a logging backend, which the server jar deliberately lacks.
func artifacts(version string) []string {
	return []string{
		"org.apache.fluss:fluss-server:" + version,
		"org.slf4j:slf4j-simple:1.7.36",
	}
}

// LibDir is where the jars of version live inside the cache.
func (c Config) LibDir() string { return filepath.Join(c.JarCache, c.Version) }

// ResolveJars makes sure the pinned jars are in the cache, downloading them
// with mvn when they are not. A half-finished download never becomes
// visible: jars land in a temporary folder that is renamed into place.
func (c Config) ResolveJars(ctx context.Context) (string, error) {
	lib := c.LibDir()
	if jarsComplete(lib, c.Version) {
		return lib, nil
	}
	if _, err := exec.LookPath("mvn"); err != nil {
		return "", fmt.Errorf("cluster: mvn is needed to fetch the Fluss %s jars from Maven Central: %w", c.Version, err)
	}
	if err := os.MkdirAll(c.JarCache, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(c.JarCache, ".download-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	for _, a := range artifacts(c.Version) {
		if err := mvnCopy(ctx, a, tmp); err != nil {
			return "", err
		}
	}
	if !jarsComplete(tmp, c.Version) {
		return "", fmt.Errorf("cluster: mvn finished but %s lacks the fluss-server jar", tmp)
	}
	// Another process may have won the race; its copy is as good as ours.
	if err := os.Rename(tmp, lib); err != nil && !jarsComplete(lib, c.Version) {
		return "", err
	}
	return lib, nil
}

func mvnCopy(ctx context.Context, artifact, dir string) error {
	cmd := exec.CommandContext(ctx, "mvn", "-B", "-q", dependencyPlugin,
		"-Dartifact="+artifact, "-DoutputDirectory="+dir)
	cmd.Dir = dir // no pom here: the goal must not pick up a project
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("cluster: mvn could not fetch %s: %w\n%s", artifact, err, tail(out.String(), 20))
	}
	return nil
}

func jarsComplete(dir, version string) bool {
	_, err := os.Stat(filepath.Join(dir, "fluss-server-"+version+".jar"))
	if err != nil {
		return false
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "slf4j-simple-*.jar"))
	return len(matches) == 1
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
