package engine

import (
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/planner"
)

// The planner describes ALTER TABLE changes and offsets as plain data so
// that it needs no client; these turn them into the client's requests.

// rpcChange returns the flussrpc form of one ALTER TABLE change.
func rpcChange(c planner.TableChange) flussrpc.TableChange {
	switch c.Kind {
	case planner.ChangeResetOption:
		return flussrpc.ResetOption(c.Key)
	case planner.ChangeAddColumn:
		return flussrpc.AddColumn(c.Column)
	case planner.ChangeDropColumn:
		return flussrpc.DropColumn(c.Column.Name)
	case planner.ChangeRenameColumn:
		return flussrpc.RenameColumn(c.Column.Name, c.NewName)
	case planner.ChangeModifyColumn:
		return flussrpc.ModifyColumn(c.Column)
	}
	return flussrpc.SetOption(c.Key, c.Value)
}

// rpcOffset returns the flussrpc offset spec for EARLIEST, LATEST and
// TIMESTAMP (with a literal timestamp); ok is false for the other kinds.
func rpcOffset(o planner.OffsetSpec) (spec flussrpc.OffsetSpec, ok bool) {
	switch o.Kind {
	case planner.OffsetEarliest:
		return flussrpc.OffsetEarliest(), true
	case planner.OffsetLatest:
		return flussrpc.OffsetLatest(), true
	case planner.OffsetTimestamp:
		if o.TimestampValue == nil {
			return flussrpc.OffsetAtTimestamp(o.Timestamp), true
		}
	}
	return flussrpc.OffsetSpec{}, false
}
