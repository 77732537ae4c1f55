package planner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gofluss/fluss/flussrpc/codec"
)

// TestCastConstants: CAST of a constant converts it as Flink does, or
// refuses it with the cast in the message.
func TestCastConstants(t *testing.T) {
	cat := newFakeCatalog(t)
	tests := []struct {
		expr string
		want any    // the literal, as fmt %v prints it
		err  string // part of the error instead
	}{
		{"CAST(5 AS STRING)", "5", ""},
		{"CAST(-5 AS VARCHAR)", "-5", ""},
		{"CAST(1.50 AS STRING)", "1.50", ""},
		{"CAST(FALSE AS STRING)", "FALSE", ""},
		{"CAST(DATE '2024-02-29' AS STRING)", "2024-02-29", ""},
		{"CAST(' 42 ' AS INT)", int32(42), ""},
		{"CAST('+7' AS BIGINT)", int64(7), ""},
		{"CAST('1.75' AS INT)", int32(1), ""},
		{"CAST('-0.9' AS INT)", int32(0), ""},
		{"CAST('.5' AS SMALLINT)", int16(0), ""},
		{"CAST(-1.75 AS TINYINT)", int8(-1), ""},
		{"CAST('2.5' AS DOUBLE)", 2.5, ""},
		{"CAST('1e3' AS DOUBLE)", 1000.0, ""},
		{"CAST('12.345' AS DECIMAL(5, 3))", "12.345", ""},
		{"CAST('True' AS BOOLEAN)", true, ""},
		{"CAST('0' AS BOOLEAN)", false, ""},
		{"CAST('2024-01-02' AS DATE)", codec.Date(19724), ""},
		{"CAST(NULL AS INT)", nil, ""},
		{"CAST(300 AS TINYINT)", nil, "CAST(300 AS TINYINT): 300 is out of range for TINYINT"},
		{"CAST('1e3' AS INT)", nil, "FLOAT literal 1e3 does not fit type INT"},
		{"CAST('seven' AS BIGINT)", nil, "STRING literal 'seven' does not fit type BIGINT"},
		{"CAST('0x1p3' AS DOUBLE)", nil, "does not fit type DOUBLE"},
		{"CAST('NaN' AS DOUBLE)", nil, "does not fit type DOUBLE"},
		{"CAST('maybe' AS BOOLEAN)", nil, "does not fit type BOOLEAN"},
		{"CAST('abcd' AS CHAR(3))", nil, "is longer than CHAR(3)"},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			p, err := plan(t, cat, nil, "SELECT "+tc.expr)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := p.(*Constant).Row[0].Literal
			if d, ok := got.(codec.Decimal); ok {
				got = d.String()
			}
			if fmt.Sprintf("%T %v", got, got) != fmt.Sprintf("%T %v", tc.want, tc.want) {
				t.Errorf("got %T %v, want %T %v", got, got, tc.want, tc.want)
			}
		})
	}
}
