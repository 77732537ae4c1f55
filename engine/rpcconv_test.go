package engine

import (
	"reflect"
	"testing"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/planner"
)

func TestRPCConversions(t *testing.T) {
	for _, c := range []planner.TableChange{
		{Kind: planner.ChangeSetOption, Key: "k", Value: "v"}, {Kind: planner.ChangeResetOption, Key: "k"},
		{Kind: planner.ChangeAddColumn, Column: schema.NewColumn("c", schema.Int())}, {Kind: planner.ChangeDropColumn, Column: schema.Column{Name: "c"}},
		{Kind: planner.ChangeRenameColumn, Column: schema.Column{Name: "c"}, NewName: "d"}, {Kind: planner.ChangeModifyColumn, Column: schema.NewColumn("c", schema.Int())},
	} {
		if reflect.ValueOf(rpcChange(c)).IsZero() {
			t.Errorf("%v: zero flussrpc.TableChange", c.Kind)
		}
	}
	for _, o := range []planner.OffsetSpec{{Kind: planner.OffsetEarliest}, {Kind: planner.OffsetLatest}, {Kind: planner.OffsetTimestamp, Timestamp: 5}} {
		if _, ok := rpcOffset(o); !ok {
			t.Errorf("%v: no RPC spec", o.Kind)
		}
	}
	if _, ok := rpcOffset(planner.OffsetSpec{Kind: planner.OffsetExplicit}); ok {
		t.Error("explicit offsets have no single RPC spec")
	}
}
