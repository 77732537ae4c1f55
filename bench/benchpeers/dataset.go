package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/gofluss/fluss/bench/internal/workload"
	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/flussrpc/schema"

	"github.com/gofluss/fluss/internal/plural"
)

// dataDB is the database of the tables that outlive a run: the analytic
// workloads' and the large scan's. Filling ten million rows takes longer
// than reading them, so they are made once and found again by the next
// run; their names carry their row counts, so that a run of another size
// makes tables of its own.
const dataDB = "benchpeers_data"

// dataset names the kept tables a run reads (empty when no case reads it).
type dataset struct {
	events, dims string // the analytic workloads' (workload.EventRow, DimRow)
	large        string // the large scan's (workload.Row)
}

// The tables of a case that reads kept ones (bcase.data).
const (
	dataEvents = "events"         // the events table
	dataJoin   = "events+dims"    // the events and the key table, for a join
	dataLarge  = "large"          // the large scan table
	noData     = ""               // the round's own tables
	dimsPerKey = 10               // events per key of the key table
	loadBudget = 30 * time.Minute // for filling the largest table
)

// openDataset makes the kept tables the cases need, unless they are
// there already, complete.
func openDataset(ctx context.Context, c *flussrpc.Client, o options, cs []bcase) (dataset, error) {
	var d dataset
	need := map[string]bool{}
	for _, bc := range cs {
		need[bc.data] = true
	}
	if len(need) == 1 && need[noData] {
		return d, nil
	}
	ctx, cancel := context.WithTimeout(ctx, loadBudget)
	defer cancel()
	if err := c.Admin().CreateDatabase(ctx, dataDB, schema.DatabaseDescriptor{}, true); err != nil {
		return d, err
	}
	keys := max(1, o.rows/dimsPerKey)
	type table struct {
		name *string
		size int
		cols []schema.Column
		pk   []string
		row  func(int) []any
	}
	var ts []table
	if need[dataEvents] || need[dataJoin] {
		d.events = fmt.Sprintf("events_%d", o.rows)
		ts = append(ts, table{&d.events, o.rows, workload.EventColumns(), nil, func(i int) []any { return workload.EventRow(i, keys) }})
	}
	if need[dataJoin] {
		d.dims = fmt.Sprintf("dims_%d", keys)
		ts = append(ts, table{&d.dims, keys, workload.DimColumns(), []string{"id"}, workload.DimRow})
	}
	if need[dataLarge] {
		d.large = fmt.Sprintf("scan_%d", o.largeRows)
		ts = append(ts, table{&d.large, o.largeRows, workload.Columns(), nil, workload.Row})
	}
	for _, t := range ts {
		desc, err := workload.Desc(t.cols, t.pk...)
		if err != nil {
			return d, err
		}
		if err := keepTable(ctx, c, *t.name, desc, t.size, t.row); err != nil {
			return d, fmt.Errorf("table %s.%s: %w", dataDB, *t.name, err)
		}
	}
	return d, nil
}

// keepTable makes sure the kept table name holds rows 0..n-1 of row: a
// table whose logs hold n records in all is taken as it is (a run that
// was stopped while filling it leaves fewer), any other is made again.
// Either way it is then read once, untimed (warmUp): the first read of a
// table after it was filled, or after the server served others for a
// while, is slower than the next ones, and would be charged to whichever
// client a round starts with.
func keepTable(ctx context.Context, c *flussrpc.Client, name string, desc schema.TableDescriptor, n int, row func(int) []any) error {
	if err := fillTable(ctx, c, name, desc, n, row); err != nil {
		return err
	}
	t, err := c.OpenTable(ctx, flussrpc.TablePath{Database: dataDB, Table: name})
	if err != nil {
		return err
	}
	// Every key: the lookup joins ask for all of them.
	return warmUp(ctx, t, desc.Schema.PrimaryKey != nil, n, time.Duration(n/60_000+1)*time.Second)
}

// fillTable is keepTable's making sure.
func fillTable(ctx context.Context, c *flussrpc.Client, name string, desc schema.TableDescriptor, n int, row func(int) []any) error {
	path := flussrpc.TablePath{Database: dataDB, Table: name}
	exists, err := c.Admin().TableExists(ctx, path)
	if err != nil {
		return err
	}
	if exists {
		got, err := logRecords(ctx, c, path)
		if err != nil {
			return err
		}
		if got == int64(n) {
			fmt.Fprintf(os.Stderr, "reusing %s.%s (%s)\n", dataDB, name, plural.Count(n, "row"))
			return nil
		}
		fmt.Fprintf(os.Stderr, "%s.%s holds %s, not %d: making it again\n", dataDB, name, plural.Count(got, "record"), n)
		if err := c.Admin().DropTable(ctx, path, true); err != nil {
			return err
		}
	}
	if err := c.Admin().CreateTable(ctx, path, desc, false); err != nil {
		return err
	}
	t, err := c.OpenTable(ctx, path)
	if err != nil {
		return err
	}
	start := time.Now()
	if desc.Schema.PrimaryKey != nil {
		err = workload.LoadUpserts(ctx, t, n, row)
	} else {
		err = workload.LoadArrow(ctx, t, n, row)
	}
	if err != nil {
		return err
	}
	el := time.Since(start)
	fmt.Fprintf(os.Stderr, "filled %s.%s with %s in %.1fs (%s rows/s)\n", dataDB, name, plural.Count(n, "row"), el.Seconds(), humanCount(float64(n)/el.Seconds()))
	return nil
}

// logRecords is the number of records in the logs of every bucket of a
// table: its rows, for a log table or a primary-key table written once
// per key.
func logRecords(ctx context.Context, c *flussrpc.Client, path flussrpc.TablePath) (int64, error) {
	latest, err := c.Admin().ListOffsets(ctx, path, "", nil, flussrpc.OffsetLatest())
	if err != nil {
		return 0, err
	}
	earliest, err := c.Admin().ListOffsets(ctx, path, "", nil, flussrpc.OffsetEarliest())
	if err != nil {
		return 0, err
	}
	var n int64
	for b, off := range latest {
		n += off - earliest[b]
	}
	return n, nil
}
