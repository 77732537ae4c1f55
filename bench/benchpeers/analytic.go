package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// analyticCases are the comparisons of the embedded engine (module
// analytics) with what a Fluss user does today: read the table with
// pyfluss into Arrow and query it with DuckDB in Python. Ours are the
// driver with the engine linked in, and Python's ADBC driver through our
// Flight SQL server with the engine. Then the large scan, long enough
// for one read to be judged on its own.
func analyticCases(o options) []bcase {
	n := humanCount(float64(o.rows))
	keys := humanCount(float64(max(1, o.rows/dimsPerKey)))
	var cs []bcase
	const (
		viaSQL   = "ours, database/sql with the engine (analytics import)"
		viaADBC  = "Python ADBC via our Flight SQL server with the engine"
		joinPeer = "pyfluss to_arrow of the log, limit scans of the keys, DuckDB join"
	)
	for _, q := range []struct{ group, query, peer string }{
		{"GROUP BY over " + n + " rows (SUM, COUNT, 1000 groups)", "group-by", "pyfluss to_arrow, then DuckDB in Python"},
		{"filter + aggregate over " + n + " rows", "filter-aggregate", "pyfluss to_arrow, then DuckDB in Python"},
		{"join " + n + " log rows with " + keys + " primary keys", "lookup-join", joinPeer},
		{"join " + n + " log rows with " + keys + " primary keys, WHERE keeps 0.1% of the log", "lookup-join-selective", joinPeer},
	} {
		data := dataEvents
		target := 1.5
		join := strings.HasPrefix(q.query, "lookup-join")
		if join {
			data, target = dataJoin, 2
		}
		c := bcase{group: q.group, peers: q.group, query: q.query, data: data, conc: 1}
		add := func(mode, lang, client, label string, target float64) {
			c.mode, c.lang, c.client, c.label, c.target = mode, lang, client, label, target
			cs = append(cs, c)
		}
		sqlLabel, adbcLabel := viaSQL, viaADBC
		if join {
			sqlLabel, adbcLabel = viaSQL+", lookup join", viaADBC+", lookup join"
		}
		add("query", langGo, "engine", sqlLabel, target)
		add("query-adbc", langPython, "", adbcLabel, target)
		if join {
			c.query = strings.Replace(q.query, "lookup-join", "scan-join", 1)
			add("query", langGo, "engine", viaSQL+", both tables read whole (ON k = id + 0)", 0)
			c.query = q.query
		}
		add("query-duckdb", langPython, "", q.peer, 0)
	}
	large := bcase{group: "bounded scan " + humanCount(float64(o.largeRows)) + " rows to Arrow (kept table)", mode: "scan-arrow", data: dataLarge, conc: 1}
	large.peers = large.group
	ours, peer := large, large
	ours.lang, ours.client, ours.label, ours.target, ours.everyRound = langGo, "native", "ours, PollArrow", 1.2, true
	peer.lang, peer.label = langPython, "pyfluss, to_arrow"
	return append(cs, ours, peer)
}

// sameAnswer checks that a query case's answer (its digest) is the one
// the first case of its comparison got in the same round; answers keeps
// them.
func sameAnswer(answers map[string]string, bc bcase, r run) error {
	if r.err != nil || bc.query == "" {
		return r.err
	}
	if r.res.Check == "" {
		return errors.New("the result line has no digest of the answer")
	}
	want, ok := answers[bc.peers]
	if !ok {
		answers[bc.peers] = r.res.Check
		return nil
	}
	if r.res.Check != want {
		return fmt.Errorf("answered %s, another client %s", r.res.Check, want)
	}
	return nil
}

// startEngineFlightSQL runs the analytics binary's Flight SQL server,
// with the engine, on a free loopback port, serving the kept tables'
// database, for the query-adbc cases. It sets o.engineURI and o.enginePID
// and returns the server's stop.
func (o *options) startEngineFlightSQL(ctx context.Context) (func(), error) {
	if o.analytics == "" {
		return nil, errors.New("-analytics: build bench/analytics and give its path (make bench-peers does)")
	}
	cmd := exec.Command(o.analytics, "serve", o.bootstrap, dataDB)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop := func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
				addr <- a
				break
			}
		}
		close(addr)
	}()
	select {
	case a, ok := <-addr:
		if !ok {
			stop()
			return nil, errors.New("the engine's Flight SQL server ended before it listened")
		}
		o.engineURI, o.enginePID = "grpc://"+a, cmd.Process.Pid
		return stop, nil
	case <-time.After(time.Minute):
	case <-ctx.Done():
	}
	stop()
	return nil, errors.New("the engine's Flight SQL server did not listen within a minute")
}
