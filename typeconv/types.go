package typeconv

import "github.com/gofluss/fluss/flussrpc/schema"

// TypeName returns the canonical Fluss SQL text of t, e.g. "INT NOT NULL",
// "DECIMAL(10, 2)", "TIMESTAMP_LTZ(3)", "MAP<STRING, ARRAY<INT>>". It is
// t.String(); ROW field descriptions are not rendered. planner.ParseType
// accepts every text TypeName returns and gives back an equal type.
func TypeName(t schema.DataType) string { return t.String() }
