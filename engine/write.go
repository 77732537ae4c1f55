package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/planner"
)

// errStalePlan means the plan was made against an older schema of its
// table than the server now has; stmt.run plans again once.
var errStalePlan = errors.New("fluss: a table changed since the statement was planned; run it again")

// ---------------------------------------------------------------------------
// Writers, cached per connection

// writerKind distinguishes append and upsert writers in the cache.
type writerKind int8

const (
	appendWriter writerKind = iota
	upsertWriter
)

// writerKey identifies a cached writer: the same table version, kind,
// partial-update columns, merge mode and resolved options share one.
type writerKey struct {
	path     flussrpc.TablePath
	schemaID int32
	kind     writerKind
	target   string // target columns joined by NUL; "" for full rows
	merge    flussrpc.MergeMode
	options  string // resolved client.writer.* options, sorted k=v lines
}

// connWriter is a cached append or upsert writer.
type connWriter struct {
	key writerKey
	h   *tableHandle
	app *flussrpc.AppendWriter
	ups *flussrpc.UpsertWriter
	// retired is set once the writer stops being the session's writer
	// for its key (closed, or replaced by one of a newer table handle),
	// so that a remembered writer is checked without hashing its key.
	retired bool
}

// writeOp is what to do with one row.
type writeOp int8

const (
	opAppend writeOp = iota
	opUpsert
	opDelete
)

func (w *connWriter) write(ctx context.Context, op writeOp, row []any) (flussrpc.WriteResult, error) {
	switch op {
	case opAppend:
		return w.app.Append(ctx, row)
	case opDelete:
		return w.ups.Delete(ctx, row)
	}
	return w.ups.Upsert(ctx, row)
}

func (w *connWriter) flush(ctx context.Context) error {
	if w.app != nil {
		return w.app.Flush(ctx)
	}
	return w.ups.Flush(ctx)
}

func (w *connWriter) close(ctx context.Context) error {
	if w.app != nil {
		return w.app.Close(ctx)
	}
	return w.ups.Close(ctx)
}

// writerOptionPrefix selects the option keys that configure writers.
const writerOptionPrefix = "client.writer."

// writerOptions resolves the client.writer.* options of a write with the
// dialect's precedence: statement hint > SET > table custom property >
// DSN. It returns the options and their canonical text for the cache key.
func (c *Session) writerOptions(h *tableHandle, hints planner.Options) (flussrpc.WriterOptions, string, error) {
	merged := map[string]string{}
	layers := []map[string]string{c.sess.DSNOptions, h.t.Info().Descriptor.CustomProperties, c.sess.Options, hints}
	for _, layer := range layers {
		for k, v := range layer {
			if strings.HasPrefix(k, writerOptionPrefix) {
				merged[k] = v
			}
		}
	}
	var opts flussrpc.WriterOptions
	keys := make([]string, 0, len(merged))
	for k := range merged {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var text strings.Builder
	for _, k := range keys {
		if err := opts.Set(k, merged[k]); err != nil {
			return opts, "", fmt.Errorf("fluss: %w", err)
		}
		text.WriteString(k + "=" + merged[k] + "\n")
	}
	return opts, text.String(), nil
}

// writer returns the connection's cached writer for the table, making it
// on first use. target is the partial-update column list (nil: full rows).
func (c *Session) writer(ctx context.Context, pt planner.Table, kind writerKind, target []string, merge flussrpc.MergeMode, hints planner.Options) (*connWriter, error) {
	// Resolving options merges four maps and parses values: too slow to
	// repeat for every row of a prepared INSERT in a loop, so the result
	// is remembered until the session changes; the writer of the last
	// call even without a map lookup, whose hashing of the key's strings
	// cost such a loop more than the rest of its engine work.
	mk := writerMemoKey{path: pt.Path, schemaID: pt.SchemaID, kind: kind, target: strings.Join(target, "\x00"), merge: merge, sess: c.sessVersion}
	if len(hints) > 0 {
		mk.hints = canonical(hints)
	}
	if w := c.lastWriter; w != nil && !w.retired && mk == c.lastWriterKey {
		return w, nil
	}
	if w := c.writerMemo[mk]; w != nil && !w.retired {
		c.lastWriter, c.lastWriterKey = w, mk
		return w, nil
	}
	w, err := c.makeWriter(ctx, pt, kind, target, merge, hints)
	if err != nil {
		return nil, err
	}
	if c.writerMemo == nil || len(c.writerMemo) > 64 {
		c.writerMemo = make(map[writerMemoKey]*connWriter)
	}
	c.writerMemo[mk] = w
	c.lastWriter, c.lastWriterKey = w, mk
	return w, nil
}

// writerMemoKey is what picks a writer before its options are resolved.
type writerMemoKey struct {
	path     flussrpc.TablePath
	schemaID int32
	kind     writerKind
	target   string
	merge    flussrpc.MergeMode
	sess     int
	hints    string
}

// canonical renders a map as sorted k=v lines.
func canonical(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sb strings.Builder
	for _, k := range keys {
		sb.WriteString(k + "=" + m[k] + "\n")
	}
	return sb.String()
}

func (c *Session) makeWriter(ctx context.Context, pt planner.Table, kind writerKind, target []string, merge flussrpc.MergeMode, hints planner.Options) (*connWriter, error) {
	h, err := c.handle(ctx, pt)
	if err != nil {
		return nil, err
	}
	opts, text, err := c.writerOptions(h, hints)
	if err != nil {
		return nil, err
	}
	key := writerKey{path: pt.Path, schemaID: pt.SchemaID, kind: kind, target: strings.Join(target, "\x00"), merge: merge, options: text}
	if w := c.writers[key]; w != nil && w.h == h {
		return w, nil
	}
	// Writers of an older version of the table (or an older handle) are
	// of no further use; close them so their sender goroutines end.
	for k, w := range c.writers {
		if k.path == pt.Path && (k.schemaID != pt.SchemaID || w.h != h) {
			if !c.txUses(w) {
				w.close(ctx)
				w.retired = true
				delete(c.writers, k)
			}
		}
	}
	w := &connWriter{key: key, h: h}
	switch kind {
	case appendWriter:
		w.app, err = h.t.NewAppendWriter(flussrpc.AppendOptions{WriterOptions: opts})
	default:
		w.ups, err = h.t.NewUpsertWriter(flussrpc.UpsertOptions{WriterOptions: opts, TargetColumns: target, MergeMode: merge})
	}
	if err != nil {
		return nil, err
	}
	if c.writers == nil {
		c.writers = make(map[writerKey]*connWriter)
	}
	if old := c.writers[key]; old != nil {
		old.retired = true // of an older table handle, still used by the write batch
	}
	c.writers[key] = w
	return w, nil
}

// writerCloseTimeout bounds how long closing a connection waits for its
// writers' last acknowledgements. Every Exec already waited for its own
// rows, so normally there is nothing left to wait for.
const writerCloseTimeout = 10 * time.Second

// closeWriters closes every cached writer; conn.Close calls it.
func (c *Session) closeWriters() error {
	ctx, cancel := context.WithTimeout(context.Background(), writerCloseTimeout)
	defer cancel()
	var errs []error
	for k, w := range c.writers {
		if err := w.close(ctx); err != nil {
			errs = append(errs, err)
		}
		w.retired = true
		delete(c.writers, k)
	}
	return errors.Join(errs...)
}

// send hands rows to w and returns the number the server acknowledged.
// Inside a write-batch transaction the rows are only queued (see tx.go)
// and the count is of rows queued. Otherwise the writer is flushed and
// every row's result awaited: Exec returns only after the server answered
// for each row, so RowsAffected never counts a row that was not written.
func (c *Session) send(ctx context.Context, w *connWriter, op writeOp, rows [][]any) (int64, error) {
	if len(rows) == 0 {
		return 0, nil
	}
	if c.tx != nil {
		return c.tx.enqueue(ctx, w, op, rows)
	}
	results := make([]flussrpc.WriteResult, 0, len(rows))
	var appendErr error
	for _, row := range rows {
		r, err := w.write(ctx, op, row)
		if err != nil {
			appendErr = err
			break
		}
		results = append(results, r)
	}
	// Flush even after a failed append: the rows taken so far are on
	// their way regardless, and the count must say how many arrived.
	ferr := w.flush(ctx)
	acked, werr := awaitResults(ctx, results)
	err := appendErr
	if err == nil {
		err = werr
	}
	if err == nil {
		err = ferr
	}
	if err != nil && acked > 0 {
		err = noRetry(err)
	}
	return acked, err
}

// noRetry keeps database/sql from running a partly written Exec again.
// connError turns a request that met an already closed connection into
// driver.ErrBadConn, so that database/sql retries it elsewhere; that is
// right for the failed batch alone, but the statement's other rows were
// written, and a retry would write them twice (log tables keep
// duplicates). The error keeps its code and text but drops the
// transport error from its chain.
func noRetry(err error) error {
	var te *flussrpc.TransportError
	if !errors.As(err, &te) {
		return err
	}
	return &Error{Code: flussrpc.CodeNetwork, Name: flussrpc.CodeNetwork.Name(), Retriable: false,
		Message: "the statement was partly written before the connection failed (not retried): " + err.Error()}
}

// awaitResults waits for every result and returns how many succeeded and
// the first failure.
func awaitResults(ctx context.Context, results []flussrpc.WriteResult) (int64, error) {
	var acked int64
	var first error
	for _, r := range results {
		if err := r.Wait(ctx); err != nil {
			if first == nil {
				first = err
			}
			if ctx.Err() != nil {
				return acked, ctx.Err()
			}
			continue
		}
		acked++
	}
	return acked, first
}

// mergeMode maps the plan's merge mode text to the writer's.
func mergeMode(s string) (flussrpc.MergeMode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "default":
		return flussrpc.MergeDefault, nil
	case "overwrite":
		return flussrpc.MergeOverwrite, nil
	}
	return 0, fmt.Errorf("fluss: 'fluss.merge-mode'='%s' is not supported; use default or overwrite", s)
}

// ---------------------------------------------------------------------------
// Write plans

func (c *Session) execAppend(ctx context.Context, p *planner.Append, b *binder) (int64, error) {
	w, err := c.writer(ctx, p.Table, appendWriter, nil, flussrpc.MergeDefault, p.Options)
	if err != nil {
		return 0, err
	}
	_, rows, err := w.h.bindRows(p.Columns, p.Rows, b)
	if err != nil {
		return 0, err
	}
	return c.send(ctx, w, opAppend, rows)
}

func (c *Session) execUpsert(ctx context.Context, p *planner.Upsert, b *binder) (int64, error) {
	merge, err := mergeMode(p.MergeMode)
	if err != nil {
		return 0, err
	}
	var target []string
	if p.Partial {
		target = p.Columns
	}
	w, err := c.writer(ctx, p.Table, upsertWriter, target, merge, p.Options)
	if err != nil {
		return 0, err
	}
	_, rows, err := w.h.bindRows(p.Columns, p.Rows, b)
	if err != nil {
		return 0, err
	}
	return c.send(ctx, w, opUpsert, rows)
}

func (c *Session) execDelete(ctx context.Context, p *planner.Delete, b *binder) (int64, error) {
	if p.Ignored {
		return 0, nil
	}
	w, err := c.writer(ctx, p.Table, upsertWriter, nil, flussrpc.MergeDefault, p.Options)
	if err != nil {
		return 0, err
	}
	idx, rows, err := w.h.bindRows(p.KeyColumns, p.Keys, b)
	if err != nil {
		return 0, err
	}
	if len(p.Residual) > 0 || c.exactRowsAffected(p.Options) {
		filter, err := compileFilter(p.Residual, schemaNames(w.h), b)
		if err != nil {
			return 0, err
		}
		if rows, err = c.existing(ctx, w.h, idx, rows, filter); err != nil {
			return 0, err
		}
	}
	return c.send(ctx, w, opDelete, rows)
}

// exactRowsAffected reports whether 'fluss.exact-rows-affected' is on
// (hint, then SET, then DSN): DELETE then looks its keys up first, so that
// RowsAffected counts only rows that existed. Fluss itself does not say
// whether a deleted key existed.
func (c *Session) exactRowsAffected(hints planner.Options) bool {
	const key = "fluss.exact-rows-affected"
	v, ok := hints[key]
	if !ok {
		v = c.option(key)
	}
	return strings.EqualFold(strings.TrimSpace(v), "true")
}

// existing keeps the rows (key columns at positions idx) whose key is
// found by a lookup and whose stored row matches filter.
func (c *Session) existing(ctx context.Context, h *tableHandle, idx []int, rows [][]any, filter *rowFilter) ([][]any, error) {
	lk, err := c.lookuperFor(h, nil)
	if err != nil {
		return nil, err
	}
	kidx, err := h.columnIndexes(lk.KeyColumns())
	if err != nil {
		return nil, err
	}
	keys := make([][]any, len(rows))
	for i, row := range rows {
		keys[i] = make([]any, len(kidx))
		for j, k := range kidx {
			keys[i][j] = row[k]
		}
	}
	found, err := lk.LookupMany(ctx, keys)
	if err != nil {
		return nil, err
	}
	out := rows[:0]
	for i, r := range rows {
		if found[i] == nil {
			continue
		}
		ok, err := filter.match(found[i])
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, r)
		}
	}
	return out, nil
}

// execUpdate looks the row up and writes it back: a partial upsert of the
// key and SET columns, or the looked-up row with the SET values applied.
// The lookup reads committed server state, so inside a write batch an
// UPDATE does not see rows the batch has not sent yet.
func (c *Session) execUpdate(ctx context.Context, p *planner.Update, b *binder) (int64, error) {
	h, err := c.handle(ctx, p.Table)
	if err != nil {
		return 0, err
	}
	lk, err := c.lookuperFor(h, nil)
	if err != nil {
		return 0, err
	}
	keys, err := distinctKeys(lk.KeyColumns(), p.KeyColumns, p.Keys, b, nil)
	if err != nil {
		return 0, err
	}
	found, err := lk.LookupMany(ctx, keys)
	if err != nil {
		return 0, err
	}
	filter, err := compileFilter(p.Residual, schemaNames(h), b)
	if err != nil {
		return 0, err
	}
	set, err := bindAssignments(h, p.Set, b)
	if err != nil {
		return 0, err
	}
	var kidx []int
	if p.Partial {
		if kidx, err = h.columnIndexes(lk.KeyColumns()); err != nil {
			return 0, err
		}
	}
	var rows [][]any
	for i, old := range found {
		if old == nil {
			continue
		}
		ok, err := filter.match(old)
		if err != nil {
			return 0, err
		}
		if !ok {
			continue
		}
		var row []any
		if p.Partial {
			row = make([]any, h.width())
			for j, k := range kidx {
				row[k] = keys[i][j]
			}
		} else {
			row = slices.Clone(old)
		}
		for col, v := range set {
			row[col] = v
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return 0, nil
	}
	var target []string
	if p.Partial {
		target = p.Columns
	}
	w, err := c.writer(ctx, p.Table, upsertWriter, target, flussrpc.MergeDefault, p.Options)
	if err != nil {
		return 0, err
	}
	return c.send(ctx, w, opUpsert, rows)
}

// bindAssignments binds UPDATE's SET values, by column position.
func bindAssignments(h *tableHandle, set []planner.Assignment, b *binder) (map[int]any, error) {
	out := make(map[int]any, len(set))
	for _, a := range set {
		i := h.t.Info().Descriptor.Schema.ColumnIndex(a.Column)
		if i < 0 {
			return nil, fmt.Errorf("fluss: UPDATE of unknown column %q", a.Column)
		}
		v, err := b.value(a.Value)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// spreadRows binds each row of values and places value j at schema
// position idx[j] of a row of width columns (NULL elsewhere).
// bindRows binds the plan's rows of the named columns into full-width
// table rows; idx maps each named column to its table position.
func (h *tableHandle) bindRows(names []string, in [][]planner.Value, b *binder) (idx []int, rows [][]any, err error) {
	if idx, err = h.columnIndexes(names); err != nil {
		return nil, nil, err
	}
	rows, err = spreadRows(in, idx, h.width(), b)
	return idx, rows, err
}

func spreadRows(in [][]planner.Value, idx []int, width int, b *binder) ([][]any, error) {
	out := make([][]any, len(in))
	for r, vals := range in {
		if len(vals) != len(idx) {
			return nil, fmt.Errorf("fluss: row %d has %s for %s", r+1, plural.Count(len(vals), "value"), plural.Count(len(idx), "column"))
		}
		row := make([]any, width)
		for j, v := range vals {
			x, err := b.value(v)
			if err != nil {
				return nil, err
			}
			row[idx[j]] = x
		}
		out[r] = row
	}
	return out, nil
}

// lookupKey binds key values given for planCols and orders them as the
// lookuper expects (want).
func lookupKey(want, planCols []string, vals []planner.Value, b *binder) ([]any, error) {
	if len(vals) != len(planCols) {
		return nil, fmt.Errorf("fluss: key has %s for %s", plural.Count(len(vals), "value"), plural.Count(len(planCols), "key column"))
	}
	bound, err := b.values(vals)
	if err != nil {
		return nil, err
	}
	if slices.Equal(want, planCols) {
		return bound, nil
	}
	key := make([]any, len(want))
	for i, name := range want {
		j := slices.Index(planCols, name)
		if j < 0 {
			return nil, fmt.Errorf("fluss: key column %q has no value", name)
		}
		key[i] = bound[j]
	}
	return key, nil
}

// execFlush flushes pending writers (FLUSH [TABLE t]). Outside a write
// batch every Exec has flushed already, so this only matters inside one,
// where it sends what the batch queued so far.
func (c *Session) execFlush(ctx context.Context, p *planner.Flush) error {
	if c.tx != nil {
		return c.tx.flush(ctx, p.Table)
	}
	var errs []error
	for k, w := range c.writers {
		if p.Table == nil || k.path == *p.Table {
			errs = append(errs, w.flush(ctx))
		}
	}
	return errors.Join(errs...)
}
