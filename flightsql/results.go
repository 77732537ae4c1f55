package flightsql

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// result is the outcome of a statement run before its rows were fetched:
// the rows (SHOW, DESCRIBE, EXPLAIN ...) or none, and the count of rows
// written.
type result struct {
	u     *user
	rec   arrow.RecordBatch // nil when the statement returns no rows
	count int64
	made  time.Time
}

func (r *result) schema() *arrow.Schema {
	if r.rec == nil {
		return arrow.NewSchema(nil, nil)
	}
	return r.rec.Schema()
}

func (r *result) release() {
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
}

// keepResult stores a result until its ticket is fetched (or it goes
// stale) and returns its handle. A user keeps at most MaxOpenPerUser
// unfetched results, as many as open handles: one more drops the user's
// oldest, whose ticket then answers NotFound.
func (s *Server) keepResult(r *result) string {
	r.made = time.Now()
	h := newHandle()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending[r.u] >= s.cfg.MaxOpenPerUser {
		oldest := ""
		for k, o := range s.results {
			if o.u == r.u && (oldest == "" || o.made.Before(s.results[oldest].made)) {
				oldest = k
			}
		}
		s.forgetResultLocked(oldest).release()
	}
	s.results[h] = r
	s.pending[r.u]++
	return h
}

// forgetResultLocked removes the result of handle h and returns it. s.mu
// is held.
func (s *Server) forgetResultLocked(h string) *result {
	r := s.results[h]
	delete(s.results, h)
	if s.pending[r.u]--; s.pending[r.u] == 0 {
		delete(s.pending, r.u)
	}
	return r
}

// takeResult removes and returns the caller's result: a ticket is fetched
// once.
func (s *Server) takeResult(ctx context.Context, h string) (*result, error) {
	u, err := userFrom(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.results[h]; r == nil || r.u != u {
		return nil, status.Error(codes.NotFound, "fluss flightsql: unknown, already fetched or dropped result ticket")
	}
	return s.forgetResultLocked(h), nil
}

// dropStaleResults forgets results made before the given time whose
// tickets were never fetched.
func (s *Server) dropStaleResults(before time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for h, r := range s.results {
		if r.made.Before(before) {
			s.forgetResultLocked(h).release()
		}
	}
}

// streamResult streams a computed result (its one record, if any).
func (s *Server) streamResult(r *result) (*arrow.Schema, <-chan chunk, error) {
	sc := r.schema()
	ch := make(chan chunk, 1)
	if r.rec != nil {
		ch <- chunk{rec: r.rec}
		r.rec = nil // streamChunks releases it once sent
	}
	close(ch)
	return sc, ch, nil
}

// rowsToRecord reads driver rows (of statements the engine answers from
// memory, such as SHOW) into one Arrow record. Each column's type is that
// of its first non-NULL value: BIGINT, DOUBLE, BOOLEAN, BYTES, TIMESTAMP
// or else STRING.
func rowsToRecord(mem memory.Allocator, rows driver.Rows) (arrow.RecordBatch, error) {
	names := rows.Columns()
	var data [][]driver.Value
	for {
		row := make([]driver.Value, len(names))
		err := rows.Next(row)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		data = append(data, row)
	}
	fields := make([]arrow.Field, len(names))
	for c, name := range names {
		fields[c] = arrow.Field{Name: name, Type: arrow.BinaryTypes.String, Nullable: true}
		for _, row := range data {
			if row[c] != nil {
				fields[c].Type = arrowTypeOf(row[c])
				break
			}
		}
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer b.Release()
	for _, row := range data {
		for c, v := range row {
			appendValue(b.Field(c), v)
		}
	}
	return b.NewRecordBatch(), nil
}

func arrowTypeOf(v driver.Value) arrow.DataType {
	switch v.(type) {
	case int64:
		return arrow.PrimitiveTypes.Int64
	case float64:
		return arrow.PrimitiveTypes.Float64
	case bool:
		return arrow.FixedWidthTypes.Boolean
	case []byte:
		return arrow.BinaryTypes.Binary
	case time.Time:
		return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	}
	return arrow.BinaryTypes.String
}

// appendValue appends v to a builder made by arrowTypeOf of a column's
// first value; a value of another type is appended as its text (or NULL
// where text does not fit).
func appendValue(b array.Builder, v driver.Value) {
	if v == nil {
		b.AppendNull()
		return
	}
	switch b := b.(type) {
	case *array.Int64Builder:
		if x, ok := v.(int64); ok {
			b.Append(x)
			return
		}
	case *array.Float64Builder:
		if x, ok := v.(float64); ok {
			b.Append(x)
			return
		}
	case *array.BooleanBuilder:
		if x, ok := v.(bool); ok {
			b.Append(x)
			return
		}
	case *array.BinaryBuilder:
		if x, ok := v.([]byte); ok {
			b.Append(x)
			return
		}
	case *array.TimestampBuilder:
		if x, ok := v.(time.Time); ok {
			b.Append(arrow.Timestamp(x.UnixMicro()))
			return
		}
	case *array.StringBuilder:
		if x, ok := v.([]byte); ok {
			b.Append(string(x))
		} else {
			b.Append(fmt.Sprint(v))
		}
		return
	}
	b.AppendNull()
}
