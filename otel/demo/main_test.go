package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/internal/clustertest"
	flussotel "github.com/gofluss/fluss/otel"
)

// measured is what changes from run to run on a line of the demo: a
// duration and what follows it, or a metric's figures.
var measured = regexp.MustCompile(`  [0-9.]+ ms.*| {2,}(total|count|last) .*`)

// The demo prints each statement's span tree, down to its RPCs, and the
// client's metrics under the Java client's names.
func TestDemo(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var out bytes.Buffer
	run := func() error {
		out.Reset()
		return run(ctx, "fluss://"+clustertest.Bootstrap(t)+"/", fmt.Sprintf("otel_demo_%d", rand.IntN(1000000)), &out)
	}
	if err := clustertest.CreateWithLeaders(t, run, func() error { return nil }); err != nil {
		t.Fatalf("%v\noutput so far:\n%s", err, out.String())
	}
	got := measured.ReplaceAllString(out.String(), "")
	for _, want := range []string{
		"INSERT users\n  plan\n    GET_TABLE_INFO\n  write users\n    PUT_KV\n",
		"SELECT users\n  plan\n  lookup users\n    LOOKUP\n",
		"INSERT events\n  plan\n    GET_TABLE_INFO\n  write events\n    PRODUCE_LOG\n",
		"  fetch events\n    FETCH_LOG\n",
		"\n  " + flussotel.MetricRequestLatency + "\n",
		"\n  " + flussotel.MetricSendLatency + "\n",
		"\n  " + flussotel.MetricFetchLatency + "\n",
		"\n  " + flussotel.MetricPollIdleRatio + "\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the demo printed no\n%s\nin\n%s", want, out.String())
		}
	}
}
