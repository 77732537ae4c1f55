package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// recipes reads the repository's Makefile into the recipe lines of each
// target (continuation lines joined).
func recipes(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(b), "\\\n", " ")
	rule := regexp.MustCompile(`^([A-Za-z0-9_.-]+):`)
	out := map[string][]string{}
	target := ""
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "\t") && target != "":
			out[target] = append(out[target], line)
		case rule.MatchString(line):
			target = rule.FindStringSubmatch(line)[1]
		case strings.TrimSpace(line) != "":
			target = ""
		}
	}
	return out
}

// Issue 30: make test reused the cluster make demo had started, then
// stopped it and removed its data. The targets that run suites go through
// `run`, which stops only a cluster started for it and removes nothing;
// only cluster-down removes data.
func TestOnlyClusterDownRemovesData(t *testing.T) {
	r := recipes(t)
	for target, lines := range r {
		for _, l := range lines {
			if strings.Contains(l, "$(CLUSTER) down") && target != "cluster-down" {
				t.Errorf("target %s removes the cluster's data: %s", target, strings.TrimSpace(l))
			}
		}
	}
	for target, want := range map[string]string{
		"test":       "$(CLUSTER) run -- $(MAKE) --no-print-directory integration",
		"fault-test": "$(CLUSTER) run -- $(GO) test -tags faultsuite",
	} {
		lines := strings.Join(r[target], "\n")
		if !strings.Contains(lines, want) || strings.Contains(lines, "$(CLUSTER) up") {
			t.Errorf("target %s does not run its suite through `%s` alone:\n%s", target, want, lines)
		}
	}
	if got := strings.Join(r["integration"], "\n"); !strings.Contains(got, "$(GO) test") || strings.Contains(got, "$(CLUSTER)") {
		t.Errorf("target integration should run the suites and leave the cluster alone:\n%s", got)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"up", "now"},
		{"run"},
		{"run", "true"},
		{"run", "--"},
		{"restart"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "usage: fluss-cluster") {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr.String())
		}
	}
}
