package engine

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/planner"
)

// Write-batch transactions.
//
// Fluss has no transactions. With tx=batch (the DSN default) BeginTx opens
// a client-side write batch instead, so that database/sql code, sqlx and
// ORMs that wrap writes in a transaction get bulk-load speed:
//
//   - Exec of INSERT/UPSERT/DELETE/UPDATE inside the batch only queues the
//     rows; RowsAffected is the number of rows queued (UPDATE: 1 when the
//     key was found). Nothing waits for the network.
//   - Commit sends everything, flushes and waits for every acknowledgement,
//     and returns the first failure. Rows of other buckets may have been
//     written even then: nothing is atomic across rows, buckets or tables.
//   - Rollback drops the rows still queued in the client. Large batches
//     are handed to the writers before Commit (every txSpillRows rows) to
//     bound memory; once that happened Rollback cannot take them back and
//     says so with ErrRollbackSent.
//   - There is no isolation: reads (SELECT, and the lookup of UPDATE) see
//     the committed server state only, never the batch's own rows.
//
// With tx=reject (Config.RejectTx) Begin fails instead. Non-default isolation levels and
// read-only transactions are refused: the driver cannot provide them.

// ErrRollbackSent is returned by Rollback of a write batch that had
// already handed rows to the server: those rows cannot be undone.
var ErrRollbackSent = errors.New("fluss: rollback cannot undo rows already sent; Fluss has no transactions and part of the write batch has left the client")

// txSpillRows is how many queued rows a batch holds before it hands them
// to the writers (which send them in the background).
const txSpillRows = 1 << 16

// batchTx is the write batch of one connection.
type batchTx struct {
	cn  *Session
	ctx context.Context // BeginTx's: database/sql uses it until Commit/Rollback

	pending []pendingRow
	results []flussrpc.WriteResult
	touched []*connWriter // writers that took rows, in first-use order
	last    *connWriter
	sent    bool
	queued  int64
}

// pendingRow is one queued row.
type pendingRow struct {
	w   *connWriter
	op  writeOp
	row []any
}

// Begin opens a write batch (see the notes on transactions above). The
// batch sends with ctx until Commit or Rollback.
func (c *Session) Begin(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if c.cfg.RejectTx {
		return nil, errors.New("fluss: transactions are disabled by tx=reject in the DSN; every Exec is acknowledged on its own (use tx=batch for client-side write batches)")
	}
	if opts.ReadOnly {
		return nil, errors.New("fluss: read-only transactions are not supported: Fluss has no snapshot reads; run the queries without a transaction")
	}
	if opts.Isolation != driver.IsolationLevel(0) {
		return nil, fmt.Errorf("fluss: isolation level %d is not supported: a Fluss transaction is a non-atomic client-side write batch with no isolation (use the default level)", opts.Isolation)
	}
	if c.tx != nil {
		return nil, errors.New("fluss: a write batch is already open on this connection")
	}
	c.tx = &batchTx{cn: c, ctx: ctx}
	return c.tx, nil
}

// txUses reports whether the open batch has rows for w, which must then
// stay open until Commit.
func (c *Session) txUses(w *connWriter) bool {
	if c.tx == nil {
		return false
	}
	for _, pr := range c.tx.pending {
		if pr.w == w {
			return true
		}
	}
	for _, t := range c.tx.touched {
		if t == w {
			return true
		}
	}
	return false
}

// enqueue queues rows for w and returns how many were queued.
func (t *batchTx) enqueue(ctx context.Context, w *connWriter, op writeOp, rows [][]any) (int64, error) {
	for _, r := range rows {
		t.pending = append(t.pending, pendingRow{w: w, op: op, row: r})
	}
	t.queued += int64(len(rows))
	if len(t.pending) >= txSpillRows {
		if err := t.hand(ctx); err != nil {
			return 0, err
		}
	}
	return int64(len(rows)), nil
}

// hand passes the queued rows to their writers. When consecutive rows go
// to different writers of the same table (say a partial update, then a
// delete of the same key), the earlier writer is flushed first, because
// two writers do not order their rows against each other.
func (t *batchTx) hand(ctx context.Context) error {
	for i, pr := range t.pending {
		if t.last != nil && t.last != pr.w && t.last.key.path == pr.w.key.path {
			if err := t.last.flush(ctx); err != nil {
				t.pending = t.pending[i:]
				return err
			}
		}
		r, err := pr.w.write(ctx, pr.op, pr.row)
		if err != nil {
			t.pending = t.pending[i:]
			return err
		}
		t.sent = true
		t.results = append(t.results, r)
		if t.last != pr.w {
			t.last = pr.w
			if !containsWriter(t.touched, pr.w) {
				t.touched = append(t.touched, pr.w)
			}
		}
	}
	clear(t.pending)
	t.pending = t.pending[:0]
	return nil
}

func containsWriter(ws []*connWriter, w *connWriter) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// flush sends what is queued (of one table, or all) and waits for it.
func (t *batchTx) flush(ctx context.Context, table *flussrpc.TablePath) error {
	if err := t.hand(ctx); err != nil {
		return err
	}
	var errs []error
	for _, w := range t.touched {
		if table == nil || w.key.path == *table {
			errs = append(errs, w.flush(ctx))
		}
	}
	return errors.Join(errs...)
}

// Commit sends every queued row, flushes, and waits until the server
// acknowledged each one; it returns the first failure.
func (t *batchTx) Commit() error {
	ctx := t.ctx
	if ctx == nil || ctx.Err() != nil {
		// A batch whose BeginTx context ended is rolled back by
		// database/sql instead; this is only a fallback.
		ctx = context.Background()
	}
	return t.commit(ctx)
}

// commit is Commit under ctx (the BeginTx context, or that of a SQL
// COMMIT statement).
func (t *batchTx) commit(ctx context.Context) error {
	c := t.cn
	if c.tx != t {
		return errors.New("fluss: the write batch is already finished")
	}
	c.tx = nil
	if err := t.hand(ctx); err != nil {
		return WrapError(err, "COMMIT")
	}
	var ferr error
	for _, w := range t.touched {
		if err := w.flush(ctx); err != nil && ferr == nil {
			ferr = err
		}
	}
	if _, err := awaitResults(ctx, t.results); err != nil {
		return WrapError(err, "COMMIT")
	}
	return WrapError(ferr, "COMMIT")
}

// Rollback drops the rows still queued in the client. When some rows had
// already been handed to the server it returns ErrRollbackSent.
func (t *batchTx) Rollback() error {
	c := t.cn
	if c.tx != t {
		return errors.New("fluss: the write batch is already finished")
	}
	c.tx = nil
	t.pending = nil
	if t.sent {
		return ErrRollbackSent
	}
	return nil
}

// execTransaction runs BEGIN / COMMIT / ROLLBACK given as SQL (the shell
// and scripts use them; database/sql code should call DB.BeginTx).
func (c *Session) execTransaction(ctx context.Context, p *planner.Transaction) error {
	switch p.Kind {
	case planner.TxBegin:
		_, err := c.Begin(ctx, driver.TxOptions{})
		if err == nil {
			// The statement's context ends with the statement; COMMIT
			// brings its own.
			c.tx.ctx = nil
		}
		return err
	case planner.TxCommit:
		if c.tx == nil {
			return errors.New("fluss: COMMIT without BEGIN")
		}
		return c.tx.commit(ctx)
	default:
		if c.tx == nil {
			return errors.New("fluss: ROLLBACK without BEGIN")
		}
		return c.tx.Rollback()
	}
}
