package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofluss/fluss/bench/internal/workload"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/cluster"
	"github.com/gofluss/fluss/internal/plural"
)

type options struct {
	ours string // the bench/ours binary
	// analytics is the bench/analytics binary, which runs our client's
	// analytic workloads with the embedded engine linked in, and serves
	// Flight SQL with it; empty skips those cases.
	analytics string
	bootstrap string
	rows      int
	// largeRows is the row count of the large scan's table.
	largeRows  int
	rounds     int
	lookupTime time.Duration
	javaCP     string
	python     string
	out        string
	only       string
	// flightURI is the Flight SQL server the scan-adbc case reads
	// through, started by orchestrate in this process.
	flightURI string
	// memFlight, at memURI, is the in-memory Flight SQL server of the
	// scan-adbc-memory case, also started by orchestrate.
	memFlight *memFlightSQL
	memURI    string
	// engineURI is the Flight SQL server with the embedded engine that
	// the query-adbc cases read through, run by the analytics binary in
	// the process enginePID.
	engineURI string
	enginePID int
	// data are the kept tables (openDataset).
	data dataset
	// cluster is the local cluster, whose servers' CPU each case is
	// charged with; nil when FLUSS_BOOTSTRAP names another one.
	cluster *cluster.Config
}

// serverCPU returns the CPU time used so far by the cluster's servers and
// this process, which runs the Flight SQL server and otherwise waits for
// the case's process: the difference over a case is what it cost the
// servers. false without a local cluster or where /proc cannot tell.
func (o options) serverCPU() (time.Duration, bool) {
	if o.cluster == nil {
		return 0, false
	}
	fluss, err := o.cluster.ServerCPU()
	if err != nil {
		return 0, false
	}
	self, err := cluster.ProcessCPU(os.Getpid())
	if err != nil {
		return 0, false
	}
	if o.enginePID != 0 {
		engine, err := cluster.ProcessCPU(o.enginePID)
		if err != nil {
			return 0, false
		}
		self += engine
	}
	return fluss + self, true
}

// Who runs a case.
const (
	langGo     = "go"
	langJava   = "java"
	langPython = "python"
)

// bcase is one line of the table: a workload run by one client.
type bcase struct {
	group  string // the workload, as the table names it
	peers  string // the group whose peers and ceiling this one is compared with
	mode   string // append, upsert, lookup, scan-arrow, scan-adbc(-decoded, -memory), scan-flight, scan-rows, scan-sql, query(-adbc, -duckdb)
	lang   string
	client string // for Go: native, arrow, sql, prepared, paired, ceiling, engine
	label  string
	conc   int
	// query names the analytic query of a query case (workload.Query).
	query string
	// data says which kept tables the case reads (dataEvents, ...);
	// noData: the round's.
	data string
	// target is, for one of our cases, the least ratio of its rate to the
	// best peer's that it is meant to reach: the median ratio over the
	// rounds, or the ratio of every round when everyRound.
	target     float64
	everyRound bool
}

// engine reports whether c runs in the analytics binary.
func (c bcase) engine() bool { return c.client == "engine" }

// rows is the number of rows c writes or reads: the large scan's, or
// the run's.
func (c bcase) rows(o options) int {
	if c.data == dataLarge {
		return o.largeRows
	}
	return o.rows
}

// ours reports whether c is this repository's: its Go client, or its
// Flight SQL servers read by ADBC (a peer client, but not a peer).
func (c bcase) ours() bool {
	return (c.lang == langGo && c.client != "ceiling") || readsFlightSQL(c.mode) || c.mode == "query-adbc"
}

func (c bcase) ceiling() bool { return c.client == "ceiling" }

// reference reports whether c is shown for reference only, neither ours
// nor a peer: Python's ADBC driver reading from memory (memFlightSQL).
func (c bcase) reference() bool { return c.mode == "scan-adbc-memory" }

// paired reports whether c times database/sql lookups in turns with native
// ones (runPaired): its figures are the time added, in a table of their own.
func (c bcase) paired() bool { return c.client == "paired" }

// cases lists every line of the table, in order.
func cases(o options) []bcase {
	n := humanCount(float64(o.rows))
	appendG := "append " + n + " rows (id, name, v), 4 buckets"
	upsertG := "upsert " + n + " rows, 4 buckets"
	arrowG := "bounded scan " + n + " rows to Arrow"
	rowsG := "bounded scan " + n + " rows, native rows"
	var cs []bcase
	add := func(group, peers, mode, lang, client, label string, conc int) {
		if peers == "" {
			peers = group
		}
		cs = append(cs, bcase{group: group, peers: peers, mode: mode, lang: lang, client: client, label: label, conc: conc})
	}
	for _, w := range []struct{ group, mode string }{{appendG, "append"}, {upsertG, "upsert"}} {
		add(w.group, "", w.mode, langGo, "native", "ours, native writer, row by row", 1)
		if w.mode == "append" {
			add(w.group, "", w.mode, langGo, "arrow", "ours, AppendArrow of 8192-row records", 1)
		}
		add(w.group, "", w.mode, langJava, "", "Java client", 1)
		pyLabel := "pyfluss, upsert per row"
		if w.mode == "append" {
			pyLabel = "pyfluss, write_arrow_batch"
		}
		add(w.group, "", w.mode, langPython, "", pyLabel, 1)
		add(w.group, "", w.mode, langGo, "ceiling", "server ceiling (replay)", 1)
	}
	for _, c := range []int{1, 64} {
		g := fmt.Sprintf("lookup c=%d", c)
		add(g, "", "lookup", langGo, "native", "ours, native Lookuper", c)
		add(g, "", "lookup", langGo, "sql", "ours, db.QueryRow", c)
		add(g, "", "lookup", langGo, "prepared", "ours, prepared stmt.QueryRow", c)
		add(g, "", "lookup", langGo, "paired", "ours, native, db.QueryRow and prepared in turns", c)
		add(g, "", "lookup", langJava, "", "Java client, batch-timeout 1 ms", c)
		add(g, "", "lookup", langPython, "", "pyfluss", c)
		add(g, "", "lookup", langGo, "ceiling", "server ceiling (replay)", c)
	}
	add(arrowG, "", "scan-arrow", langGo, "native", "ours, PollArrow", 1)
	add(arrowG, "", "scan-arrow", langPython, "", "pyfluss, to_arrow", 1)
	add(arrowG, "", "scan-adbc", langPython, "", "Python ADBC via our Flight SQL server, zstd batches passed through", 1)
	add(arrowG, "", "scan-adbc-decoded", langPython, "", "Python ADBC via our Flight SQL server, batches decoded by it", 1)
	add(arrowG, "", "scan-flight", langPython, "", "Python pyarrow.flight (C++) via our Flight SQL server, batches decoded by it", 1)
	add(arrowG, "", "scan-adbc-memory", langPython, "", "Python ADBC from the same records in memory (the client alone, for reference)", 1)
	add(rowsG, "", "scan-rows", langGo, "native", "ours, Poll", 1)
	add(rowsG, "", "scan-rows", langJava, "", "Java client, poll loop", 1)
	add("bounded scan "+n+" rows through database/sql", rowsG, "scan-sql", langGo, "sql", "ours, database/sql Rows", 1)
	cs = append(cs, analyticCases(o)...)

	var keep []bcase
	re := regexp.MustCompile(o.only)
	for _, c := range cs {
		if (c.lang == langJava && o.javaCP == "") || (c.lang == langPython && o.python == "") || (c.engine() && o.analytics == "") || !re.MatchString(c.group) {
			continue
		}
		keep = append(keep, c)
	}
	return keep
}

// run is the outcome of one case in one round.
type run struct {
	res    workload.Result
	rssKiB int64
	err    error
	// serverCPU is the CPU time the servers used during the case (see
	// options.serverCPU), when serverCPUOK.
	serverCPU   time.Duration
	serverCPUOK bool
}

func orchestrate(ctx context.Context, o options) error {
	if _, err := regexp.Compile(o.only); err != nil {
		return fmt.Errorf("-only: %w", err)
	}
	cs := cases(o)
	if len(cs) == 0 {
		return errors.New("no workload selected")
	}
	if o.ours == "" && slices.ContainsFunc(cs, func(bc bcase) bool { return bc.lang == langGo && !bc.ceiling() && !bc.engine() }) {
		return errors.New("-ours: build bench/ours and give its path (make bench-peers does)")
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	c, err := flussrpc.NewClient(ctx, flussrpc.Config{Bootstrap: []string{o.bootstrap}})
	if err != nil {
		return err
	}
	defer c.Close()
	if slices.ContainsFunc(cs, func(bc bcase) bool { return readsFlightSQL(bc.mode) }) {
		stop, err := o.startFlightSQL()
		if err != nil {
			return err
		}
		defer stop()
	}
	if slices.ContainsFunc(cs, func(bc bcase) bool { return bc.mode == "query-adbc" }) {
		stop, err := o.startEngineFlightSQL(ctx)
		if err != nil {
			return err
		}
		defer stop()
	}
	if o.data, err = openDataset(ctx, c, o, cs); err != nil {
		return err
	}
	if slices.ContainsFunc(cs, bcase.reference) {
		m, uri, stop, err := startMemFlightSQL()
		if err != nil {
			return err
		}
		defer stop()
		o.memFlight, o.memURI = m, uri
	}
	startLoad := loadAverage()
	startCPU, startCPUOK := readCPUTimes()
	runs := make([][]run, len(cs))
	for round := 1; round <= o.rounds; round++ {
		rd, err := newRound(ctx, c, o, round, cs)
		if err != nil {
			return err
		}
		answers := map[string]string{} // the first digest of each comparison's answer
		for _, i := range roundOrder(cs, round) {
			bc := cs[i]
			db, table, err := rd.tableFor(ctx, o, bc, i)
			if err == nil && bc.reference() {
				err = o.memFlight.read(ctx, c, db, table)
			}
			var r run
			if err == nil {
				cpu0, ok0 := o.serverCPU()
				r = execCase(ctx, o, self, bc, db, table)
				if cpu1, ok1 := o.serverCPU(); ok0 && ok1 {
					r.serverCPU, r.serverCPUOK = cpu1-cpu0, true
				}
				r.err = sameAnswer(answers, bc, r)
			} else {
				r.err = err
			}
			if r.err != nil {
				fmt.Fprintf(os.Stderr, "round %d, %s, %s: %v\n", round, bc.group, bc.label, r.err)
			} else {
				fmt.Fprintf(os.Stderr, "round %d, %s, %s: %s/s (%.1fs, RSS %d MiB)\n", round, bc.group, bc.label, humanCount(r.res.Rate()), r.res.Seconds, r.rssKiB>>10)
			}
			runs[i] = append(runs[i], r)
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
		rd.drop()
	}
	tbl := report(cs, runs)
	head := fmt.Sprintf("benchpeers %s: %s, %s, lookups for %s each; load average %s at the start, %s at the end; %s, %s of their time stolen by the hypervisor\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), plural.Count(o.rows, "row"), plural.Count(o.rounds, "round"), o.lookupTime, startLoad, loadAverage(), plural.Count(numCPU(), "CPU"), stolenSince(startCPU, startCPUOK))
	tbl += ratioLines(cs, runs)
	fmt.Print(head + tbl)
	if o.out != "" {
		if err := os.MkdirAll(o.out, 0o755); err != nil {
			return err
		}
		name := fmt.Sprintf("%s/peers-%s.md", o.out, time.Now().UTC().Format("20060102-150405"))
		if err := os.WriteFile(name, []byte(head+tbl), 0o644); err != nil {
			return err
		}
		fmt.Fprintln(os.Stderr, "table written to", name)
	}
	return nil
}

// roundOrder is the order in which round runs the cases: the cases of
// one comparison (same peers) stay together, and each round starts them
// one later than the round before. Without the rotation the first client
// of a comparison always ran right after the shared table was filled,
// while the server was still flushing and its caches were cold, and the
// last always ran warm.
func roundOrder(cs []bcase, round int) []int {
	var order []int
	for lo := 0; lo < len(cs); {
		hi := lo + 1
		for hi < len(cs) && cs[hi].peers == cs[lo].peers {
			hi++
		}
		n := hi - lo
		for k := range n {
			order = append(order, lo+(k+round-1)%n)
		}
		lo = hi
	}
	return order
}

// roundTables are one round's database and its shared read-only tables.
type roundTables struct {
	c      *flussrpc.Client
	db     string
	lookup string // primary-key table holding every row, for the lookups
	scan   string // log table holding every row, for the scans
}

// newRound creates the round's database and fills the tables the read
// workloads share, with this repository's writers (untimed).
func newRound(ctx context.Context, c *flussrpc.Client, o options, round int, cs []bcase) (*roundTables, error) {
	rd := &roundTables{c: c, db: fmt.Sprintf("benchpeers_%d_r%d", time.Now().Unix()%1_000_000, round)}
	if err := c.Admin().CreateDatabase(ctx, rd.db, schema.DatabaseDescriptor{}, false); err != nil {
		return nil, err
	}
	// Every scan mode ("scan-...") reads the one scan table, unless it
	// reads a kept one.
	need := map[string]bool{}
	for _, bc := range cs {
		if bc.data != noData {
			continue
		}
		need[bc.mode] = true
		need["scan"] = need["scan"] || strings.HasPrefix(bc.mode, "scan-")
	}
	fill := func(name string, pk bool) error {
		if err := createTable(ctx, c, rd.db, name, pk); err != nil {
			return err
		}
		t, err := c.OpenTable(ctx, flussrpc.TablePath{Database: rd.db, Table: name})
		if err != nil {
			return err
		}
		if _, err = workload.WriteRows(ctx, t, pk, o.rows); err != nil {
			return err
		}
		return warmUp(ctx, t, pk, o.rows, o.lookupTime)
	}
	if need["lookup"] {
		rd.lookup = "lookup"
		if err := fill(rd.lookup, true); err != nil {
			rd.drop()
			return nil, fmt.Errorf("filling the lookup table: %w", err)
		}
	}
	if need["scan"] {
		rd.scan = "scan"
		if err := fill(rd.scan, false); err != nil {
			rd.drop()
			return nil, fmt.Errorf("filling the scan table: %w", err)
		}
	}
	return rd, nil
}

// warmUp reads a table of rows rows once, untimed, so that no client
// pays for the server's cold caches: a primary-key table at every key a
// lookup run of lookupTime can ask for, a log table by one full scan.
func warmUp(ctx context.Context, t *flussrpc.Table, pk bool, rows int, lookupTime time.Duration) error {
	if !pk {
		_, err := workload.TimeScan(ctx, t, workload.Job{Mode: "scan-arrow", Rows: rows})
		return err
	}
	lk, err := t.NewLookuper()
	if err != nil {
		return err
	}
	// About the most keys a run gets through: 60k lookups a second.
	n := min(rows, max(1, int(lookupTime.Seconds()*60_000)))
	const batch = 2000
	keys := make([][]any, 0, batch)
	for j := 0; j < n; j += batch {
		keys = keys[:0]
		for k := j; k < min(j+batch, n); k++ {
			keys = append(keys, []any{workload.LookupKey(k, rows)})
		}
		if _, err := lk.LookupMany(ctx, keys); err != nil {
			return fmt.Errorf("warming up the lookup table: %w", err)
		}
	}
	return nil
}

// tableFor returns the database and table case i reads (a join's two
// tables separated by a comma), or creates an empty one for a write
// workload.
func (rd *roundTables) tableFor(ctx context.Context, o options, bc bcase, i int) (db, table string, err error) {
	switch {
	case bc.data == dataEvents:
		return dataDB, o.data.events, nil
	case bc.data == dataJoin:
		return dataDB, o.data.events + "," + o.data.dims, nil
	case bc.data == dataLarge:
		return dataDB, o.data.large, nil
	case bc.mode == "lookup":
		return rd.db, rd.lookup, nil
	case bc.mode == "append" || bc.mode == "upsert":
		name := fmt.Sprintf("w%d_%s", i, bc.mode)
		return rd.db, name, createTable(ctx, rd.c, rd.db, name, bc.mode == "upsert")
	}
	return rd.db, rd.scan, nil
}

func (rd *roundTables) drop() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := rd.c.Admin().DropDatabase(ctx, rd.db, true, true); err != nil {
		fmt.Fprintln(os.Stderr, "dropping", rd.db+":", err)
	}
}

func createTable(ctx context.Context, c *flussrpc.Client, db, name string, pk bool) error {
	d, err := workload.TableDesc(pk)
	if err != nil {
		return err
	}
	return c.Admin().CreateTable(ctx, flussrpc.TablePath{Database: db, Table: name}, d, false)
}

// execCase runs one case in its own process and reads its result line,
// peak RSS included.
func execCase(ctx context.Context, o options, self string, bc bcase, db, table string) run {
	args := []string{bc.mode, o.bootstrap, db, table, strconv.Itoa(bc.rows(o)), strconv.Itoa(bc.conc), strconv.FormatFloat(o.lookupTime.Seconds(), 'f', -1, 64)}
	var env []string
	if bc.query != "" {
		// The analytics binary makes the query's text itself; the Python
		// programs are handed it.
		sql, _, err := workload.Query(bc.query, table)
		if err != nil {
			return run{err: err}
		}
		env = append(os.Environ(), "BENCHPEERS_SQL="+sql)
		if bc.engine() {
			args[0] = bc.query
		}
	}
	var cmd *exec.Cmd
	ctx, cancel := context.WithTimeout(ctx, 20*time.Minute)
	defer cancel()
	switch bc.lang {
	case langGo:
		// The ceiling replays in this binary; our client runs in one of
		// its own, whose peak RSS is then the client's (bench/ours).
		name, pre := o.ours, []string{bc.client}
		switch {
		case bc.ceiling():
			name, pre = self, []string{"ceiling", bc.client}
		case bc.engine():
			name = o.analytics
		}
		cmd = exec.CommandContext(ctx, name, append(pre, args...)...)
	case langJava:
		// Arrow in the Java client needs java.nio opened to it.
		cmd = exec.CommandContext(ctx, "java", append([]string{"--add-opens=java.base/java.nio=ALL-UNNAMED", "-cp", o.javaCP, "io.github.gofluss.bench.Bench"}, args...)...)
	case langPython:
		switch {
		case bc.mode == "query-adbc":
			args[1] = o.engineURI
		case readsFlightSQL(bc.mode):
			args[1] = o.flightURI
		case bc.reference():
			args[1] = o.memURI
		}
		cmd = exec.CommandContext(ctx, o.python, append([]string{"bench/pyfluss_bench.py"}, args...)...)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Env = &stdout, &stderr, env
	err := cmd.Run()
	var r run
	if err != nil {
		r.err = fmt.Errorf("%w: %s", err, lastLines(stderr.String(), 5))
		return r
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r.res); err != nil || r.res.Ops <= 0 {
		r.err = fmt.Errorf("no result line in %q (%v): %s", stdout.String(), err, lastLines(stderr.String(), 5))
	}
	r.rssKiB = r.res.VmHWMKiB
	return r
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(ls[max(0, len(ls)-n):], " | ")
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// readsFlightSQL reports whether a mode reads through the Flight SQL
// server (the ADBC scans, with and without pass-through, and the C++
// Flight client's).
func readsFlightSQL(mode string) bool {
	return mode == "scan-adbc" || mode == "scan-adbc-decoded" || mode == "scan-flight"
}
