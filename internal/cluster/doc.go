// Package cluster runs a real local Apache Fluss cluster for development and
// tests: one ZooKeeper, one CoordinatorServer and N TabletServers, each a
// separate JVM with a bounded heap, listening on 127.0.0.1 only.
//
// The server jars come from Maven Central through the local `mvn` and are
// cached outside the repository (see JarCacheDir), so a second run starts
// without touching the network. The Fluss version is pinned by
// DefaultFlussVersion and may be overridden with FLUSS_VERSION.
//
// Every process is started in its own session and recorded in a pid file in
// the cluster directory; Stop and Down stop exactly those processes (after
// checking that each pid still runs a command line that names the cluster
// directory, so a recycled pid is never signalled), and Down, alone, removes
// the directory. Up starts a stopped cluster again on its data. Run runs a
// command with the cluster up and stops afterwards only a cluster started
// for a run, so that a test target never stops a cluster someone else uses.
//
// Settings come from the environment (see FromEnv): FLUSS_PORT (coordinator
// port, default 9123), FLUSS_TABLETS (default 1), FLUSS_SASL=1 (an extra
// SASL/PLAIN listener with the users in SASLUsers), FLUSS_CLUSTER_DIR,
// FLUSS_VERSION, FLUSS_JAR_CACHE and JAVA_HOME.
package cluster
