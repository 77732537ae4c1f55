package flightsql

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/gofluss/fluss/flussrpc/codec/arrowipc"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// The schemas this server gives clients mark TIMESTAMP_LTZ with the zone
// "UTC" (arrowipc.InstantSchema): records decoded or built under the
// unmarked type go out as they are, under the marked schema.

// clientSchema is the Arrow schema clients are given for cols.
func clientSchema(cols []schema.Column) (*arrow.Schema, error) { return arrowipc.InstantSchema(cols) }

// clientType is the Arrow type clients are given for t.
func clientType(t schema.DataType) (arrow.DataType, error) { return arrowipc.InstantType(t) }
