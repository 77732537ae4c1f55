package engine

import (
	"testing"

	"github.com/gofluss/fluss/planner"
)

// TestEveryProcedureIsExecuted pins that the planner and the executor
// agree on the procedures: a planned CALL never meets "not executed".
func TestEveryProcedureIsExecuted(t *testing.T) {
	procs := planner.Procedures()
	for _, p := range procs {
		if procedureFuncs[p] == nil {
			t.Errorf("%s is planned but not executed", p)
		}
	}
	if len(procedureFuncs) != len(procs) {
		t.Errorf("%d executors for %d procedures", len(procedureFuncs), len(procs))
	}
}
