package flightsql

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	fsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/plural"
)

// DoPutCommandStatementIngest writes uploaded record batches into a table:
// appended to a log table through the native Arrow writer, upserted into a
// primary-key table. Each batch is written and acknowledged before the
// next is read; the count is of acknowledged rows, and an error names how
// many were acknowledged before it. A missing table is created (as a log
// table with the batches' columns) when the command asks for it.
func (s *Server) DoPutCommandStatementIngest(ctx context.Context, cmd fsql.StatementIngest, rdr flight.MessageReader) (int64, error) {
	if cmd.GetTemporary() {
		return 0, unimplemented("temporary tables")
	}
	if len(cmd.GetTransactionId()) > 0 {
		return 0, unimplemented("ingest inside a transaction")
	}
	if c := cmd.GetCatalog(); !s.ourCatalog(&c) {
		return 0, status.Errorf(codes.NotFound, "fluss flightsql: unknown catalog %q", c)
	}
	l, err := s.session(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer l.release()
	db := cmd.GetSchema()
	if db == "" {
		db = s.cfg.Session.Database
	}
	path := flussrpc.TablePath{Database: db, Table: cmd.GetTable()}
	pk, err := s.prepareIngest(ctx, l, path, cmd.GetTableDefinitionOptions(), rdr.Schema())
	if err != nil {
		return 0, err
	}
	name := quoteIdent(path.Database) + "." + quoteIdent(path.Table)
	var acked int64
	for rdr.Next() {
		rec := rdr.RecordBatch()
		var n int64
		if pk {
			n, err = l.s.UpsertArrow(ctx, name, rec)
		} else {
			n, err = l.s.AppendArrow(ctx, name, rec)
		}
		acked += n
		if err != nil {
			return 0, statusOf(fmt.Errorf("%w (%s acknowledged before the failure)", err, plural.Count(acked, "row")))
		}
	}
	if err := rdr.Err(); err != nil {
		return 0, status.Errorf(codes.InvalidArgument, "fluss flightsql: reading the uploaded batches (%s acknowledged before): %v", plural.Count(acked, "row"), err)
	}
	return acked, nil
}

// prepareIngest applies the table definition options: it checks or
// creates the table and tells whether it has a primary key.
func (s *Server) prepareIngest(ctx context.Context, l lease, path flussrpc.TablePath, opts *fsql.TableDefinitionOptions, sc *arrow.Schema) (bool, error) {
	info, err := l.s.Client().Admin().GetTableInfo(ctx, path)
	exists := err == nil
	if err != nil && !errors.Is(err, flussrpc.ErrTableNotExist) {
		return false, statusOf(err)
	}
	if exists {
		switch opts.GetIfExists() {
		case fsql.TableDefinitionOptionsTableExistsOptionFail:
			return false, status.Errorf(codes.AlreadyExists, "fluss flightsql: table %s exists (ingest mode create; use append)", path)
		case fsql.TableDefinitionOptionsTableExistsOptionReplace:
			return false, unimplemented("ingest replacing a table (drop it first)")
		}
		return info.Descriptor.HasPrimaryKey(), nil
	}
	if opts.GetIfNotExist() != fsql.TableDefinitionOptionsTableNotExistOptionCreate {
		return false, status.Errorf(codes.NotFound, "fluss flightsql: table %s does not exist", path)
	}
	if sc == nil {
		return false, status.Error(codes.InvalidArgument, "fluss flightsql: cannot create a table without the batches' schema")
	}
	ddl, err := createTableSQL(path, sc)
	if err != nil {
		return false, status.Error(codes.InvalidArgument, err.Error())
	}
	st, err := parseOne(ddl)
	if err != nil {
		return false, statusOf(err)
	}
	if _, _, err := l.s.Prepare(st).Run(ctx, nil); err != nil {
		return false, statusOf(engine.WrapError(err, ddl))
	}
	return false, nil
}

// quoteIdent quotes a name with backquotes.
func quoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// createTableSQL is the CREATE TABLE of a log table with an Arrow schema's
// columns.
func createTableSQL(path flussrpc.TablePath, sc *arrow.Schema) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s.%s (", quoteIdent(path.Database), quoteIdent(path.Table))
	for i, f := range sc.Fields() {
		t, err := flussTypeOf(f.Type)
		if err != nil {
			return "", fmt.Errorf("fluss flightsql: column %q: %w", f.Name, err)
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteIdent(f.Name) + " " + t)
		if !f.Nullable {
			b.WriteString(" NOT NULL")
		}
	}
	b.WriteString(")")
	return b.String(), nil
}

// flussTypeOf is the Fluss type text for an Arrow type (the inverse of
// the Arrow schema Fluss gives its tables).
func flussTypeOf(t arrow.DataType) (string, error) {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return "BOOLEAN", nil
	case *arrow.Int8Type:
		return "TINYINT", nil
	case *arrow.Int16Type:
		return "SMALLINT", nil
	case *arrow.Int32Type:
		return "INT", nil
	case *arrow.Int64Type:
		return "BIGINT", nil
	case *arrow.Float32Type:
		return "FLOAT", nil
	case *arrow.Float64Type:
		return "DOUBLE", nil
	case *arrow.StringType, *arrow.LargeStringType:
		return "STRING", nil
	case *arrow.BinaryType, *arrow.LargeBinaryType:
		return "BYTES", nil
	case *arrow.FixedSizeBinaryType:
		return fmt.Sprintf("BINARY(%d)", t.ByteWidth), nil
	case *arrow.Decimal128Type:
		return fmt.Sprintf("DECIMAL(%d, %d)", t.Precision, t.Scale), nil
	case *arrow.Date32Type:
		return "DATE", nil
	case *arrow.Time32Type, *arrow.Time64Type:
		return "TIME", nil
	case *arrow.TimestampType:
		p := map[arrow.TimeUnit]int{arrow.Second: 0, arrow.Millisecond: 3, arrow.Microsecond: 6, arrow.Nanosecond: 9}[t.Unit]
		if t.TimeZone != "" {
			return fmt.Sprintf("TIMESTAMP_LTZ(%d)", p), nil
		}
		return fmt.Sprintf("TIMESTAMP(%d)", p), nil
	case *arrow.ListType:
		e, err := flussTypeOf(t.Elem())
		return "ARRAY<" + e + ">", err
	}
	return "", fmt.Errorf("no Fluss type for Arrow %s", t)
}
