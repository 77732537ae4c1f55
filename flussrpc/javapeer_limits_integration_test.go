package flussrpc_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/codec"
	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/clustertest"
	"github.com/gofluss/fluss/internal/javapeer"
	"github.com/gofluss/fluss/internal/peertest"
)

// Values the Java client 0.9.1 itself cannot read back although they are
// valid and stored correctly. The tests state the upstream behaviour (and
// notice when it changes) and check our side against the format instead.

// TestJavaPeerPre1970ArrowFraction: an ARROW timestamp before 1970 with a
// sub-millisecond part is a negative count of micro- or nanoseconds whose
// remainder Java's ArrowTimestamp*ColumnVector computes with %, giving a
// negative nano-of-milli that TimestampNtz/TimestampLtz reject, so Java
// fails to read the batch. pyfluss reads ARROW logs through pyarrow,
// exact to the nanosecond, so it checks what we wrote; and rows Java
// writes (its writer is right) must read back exactly here.
func TestJavaPeerPre1970ArrowFraction(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	bs := clustertest.Bootstrap(t)
	peer := javapeer.Start(t, bs)
	cols := []schema.Column{
		schema.NewColumn("id", schema.BigInt()),
		schema.NewColumn("ts6", schema.Timestamp(6)), schema.NewColumn("ts9", schema.Timestamp(9)),
		schema.NewColumn("ltz6", schema.TimestampLTZ(6)), schema.NewColumn("ltz9", schema.TimestampLTZ(9)),
	}
	pre := time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC)
	old := time.Date(1677, 9, 21, 0, 12, 43, 145224193, time.UTC)
	var rows [][]any
	for i, tt := range []time.Time{pre, pre.Add(-time.Microsecond * 1500), old} {
		us := tt.Truncate(time.Microsecond)
		rows = append(rows, []any{int64(i), codec.TimestampNTZOf(us), codec.TimestampNTZOf(tt), codec.TimestampLTZOf(us), codec.TimestampLTZOf(tt)})
	}
	desc := func() schema.TableDescriptor {
		return schema.TableDescriptor{Schema: newSchema(t, cols), BucketCount: intPtr(1)}
	}

	ours := createTable(t, c, db, "pre1970_go", desc())
	jpWriteGo(t, ours, rows)
	if recs, perr := peer.TryScan(t, db, "pre1970_go", cols); perr != nil {
		if !strings.Contains(perr.Message, "IllegalArgumentException") {
			t.Errorf("Java failed in an unexpected way: %s", perr.Message)
		}
		t.Logf("upstream: the Java client cannot read pre-1970 sub-millisecond ARROW timestamps: %.300s", perr.Message)
	} else {
		// Fixed upstream: then Java must agree as for every other value.
		var got [][]any
		for _, r := range recs {
			got = append(got, r.Row)
		}
		sameRowSet(t, "rows Java scanned", got, rows)
	}
	var got [][]any
	for _, r := range peertest.Scan(t, bs, db, "pre1970_go").Rows {
		row, err := peertest.UntagRow(cols, r.Row)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, row)
	}
	sameRowSet(t, "rows pyfluss (pyarrow) scanned", got, rows)

	theirs := createTable(t, c, db, "pre1970_java", desc())
	peer.Write(t, "append", db, "pre1970_java", cols, rows)
	jpCheckGoReads(t, theirs, jpTable{}, rows)
}

// TestJavaPeerIndexedFixedLength: INDEXED rows store CHAR(n) and BINARY(n)
// in exactly n bytes, zero padded. The Java client 0.9.1 returns BINARY(n)
// from INDEXED rows with trailing zero bytes dropped, and throws
// ArrayIndexOutOfBoundsException when a CHAR(n) value needs more than n
// bytes in UTF-8. We return the n stored bytes, and refuse such a CHAR
// value with an error instead of writing a broken row.
func TestJavaPeerIndexedFixedLength(t *testing.T) {
	c := newClient(t, flussrpc.Config{})
	db := newDatabase(t, c.Admin())
	peer := javapeer.Start(t, clustertest.Bootstrap(t))
	cols := []schema.Column{schema.NewColumn("id", schema.BigInt()), schema.NewColumn("bin", schema.Binary(4)), schema.NewColumn("ch", schema.Char(5))}
	desc := schema.TableDescriptor{Schema: newSchema(t, cols), BucketCount: intPtr(1), Properties: map[string]string{schema.OptLogFormat: schema.FormatIndexed}}
	rows := [][]any{
		{int64(0), []byte{1, 0, 0, 0}, "ab"},
		{int64(1), []byte{0, 0, 0, 0}, "ÿÿ"},
		{int64(2), []byte{0, 0, 0, 7}, "abcde"},
	}
	for _, who := range []string{"go", "java"} {
		tbl := createTable(t, c, db, "fixed_"+who, desc)
		if who == "go" {
			jpWriteGo(t, tbl, rows)
		} else {
			peer.Write(t, "append", db, tbl.Path().Table, cols, rows)
		}
		jpCheckGoReads(t, tbl, jpTable{}, rows)
		for _, r := range peer.Scan(t, db, tbl.Path().Table, cols) {
			want := rows[r.Row[0].(int64)]
			bin := r.Row[1].([]byte)
			if trimmed := strings.TrimRight(string(want[1].([]byte)), "\x00"); string(bin) != string(want[1].([]byte)) {
				if string(bin) != trimmed {
					t.Errorf("Java read BINARY(4) %x, want %x (or %x, its upstream trimming)", bin, want[1], trimmed)
				} else {
					t.Logf("upstream: the Java client reads BINARY(4) %x from an INDEXED row as %x", want[1], bin)
				}
			}
			if r.Row[2] != want[2] {
				t.Errorf("Java read CHAR(5) %q, want %q", r.Row[2], want[2])
			}
		}
	}

	tbl := createTable(t, c, db, "fixed_long", desc)
	w, err := tbl.NewAppendWriter(flussrpc.AppendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(testCtx(t))
	_, err = w.Append(testCtx(t), []any{int64(9), nil, "héllo"})
	if err == nil || !strings.Contains(err.Error(), "CHAR(5)") {
		t.Fatalf("'héllo' (6 bytes) in an INDEXED CHAR(5): error %v, want a refusal", err)
	}
	if perr := peer.TryWrite(t, "append", db, "fixed_long", cols, [][]any{{int64(9), nil, "héllo"}}); perr != nil {
		t.Logf("upstream: the Java client fails on the same value: %.200s", perr.Message)
	}
}
