package engine

import (
	"testing"

	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/planner"
)

// TestOffsetTimestampKinds pins the one conversion of AT TIMESTAMP values:
// SHOW OFFSETS took TIMESTAMP_LTZ and epoch milliseconds but refused a
// TIMESTAMP (without time zone) that scan positions accepted.
func TestOffsetTimestampKinds(t *testing.T) {
	s := &Session{}
	for _, v := range []any{codec.TimestampLTZ{Millis: 5}, codec.TimestampNTZ{Millis: 5}, int64(5)} {
		o := &planner.OffsetSpec{Kind: planner.OffsetTimestamp, TimestampValue: &planner.Value{Kind: planner.ValueLiteral, Literal: v}}
		spec, err := s.offsetSpec(o, &binder{cn: s})
		if err != nil {
			t.Errorf("%T: %v", v, err)
			continue
		}
		if spec.String() != "timestamp(5)" {
			t.Errorf("%T: %s, want timestamp(5)", v, spec)
		}
	}
	o := &planner.OffsetSpec{Kind: planner.OffsetTimestamp, TimestampValue: &planner.Value{Kind: planner.ValueLiteral, Literal: "soon"}}
	if _, err := s.offsetSpec(o, &binder{cn: s}); err == nil {
		t.Error("a string is not a timestamp")
	}
}
