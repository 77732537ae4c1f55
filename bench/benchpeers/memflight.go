package main

import (
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	fsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gofluss/fluss/bench/internal/workload"
	"github.com/gofluss/fluss/flussrpc"
)

// memFlightSQL is the ADBC lines' reference: a Flight SQL server that
// answers a query of the scan table with that table's records held in
// memory, as a bounded scan decoded them, in one endpoint per bucket as
// our Flight SQL server splits the scan. Read by Python's ADBC driver, it
// times the client alone, which no server can beat; any other query
// answers no rows (the client's untimed first call).
type memFlightSQL struct {
	fsql.BaseServer
	mu    sync.Mutex
	table string // db.table of the records
	sc    *arrow.Schema
	parts [][]arrow.RecordBatch // by bucket
}

// startMemFlightSQL serves an empty memFlightSQL on a free loopback port.
func startMemFlightSQL() (*memFlightSQL, string, func(), error) {
	m := &memFlightSQL{}
	srv := flight.NewServerWithMiddleware(nil)
	srv.RegisterFlightService(fsql.NewFlightServer(m))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", nil, err
	}
	srv.InitListener(l)
	go func() { _ = srv.Serve() }()
	return m, "grpc://" + l.Addr().String(), func() { srv.Shutdown(); m.load(nil, "", nil) }, nil
}

// read scans t whole and keeps its records, which the queries of db.table
// then answer.
func (m *memFlightSQL) read(ctx context.Context, c *flussrpc.Client, db, table string) error {
	t, err := c.OpenTable(ctx, flussrpc.TablePath{Database: db, Table: table})
	if err != nil {
		return err
	}
	sc, err := workload.OpenBoundedScan(ctx, t)
	if err != nil {
		return err
	}
	defer sc.Close()
	var parts [][]arrow.RecordBatch
	var schema *arrow.Schema
	for {
		bs, err := sc.PollArrow(ctx, time.Second)
		for _, b := range bs {
			for int(b.Bucket) >= len(parts) {
				parts = append(parts, nil)
			}
			parts[b.Bucket] = append(parts[b.Bucket], b.Record)
			schema = b.Record.Schema()
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			releaseAll(parts)
			return err
		}
	}
	m.load(schema, db+"."+table, parts)
	return nil
}

// load replaces the records served, releasing the previous ones.
func (m *memFlightSQL) load(sc *arrow.Schema, table string, parts [][]arrow.RecordBatch) {
	m.mu.Lock()
	old := m.parts
	m.sc, m.table, m.parts = sc, table, parts
	m.mu.Unlock()
	releaseAll(old)
}

func releaseAll(parts [][]arrow.RecordBatch) {
	for _, p := range parts {
		for _, r := range p {
			r.Release()
		}
	}
}

// GetFlightInfoStatement gives one endpoint per bucket to a query naming
// the loaded table, and none to any other (both with the table's schema).
func (m *memFlightSQL) GetFlightInfoStatement(_ context.Context, cmd fsql.StatementQuery, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sc == nil {
		return nil, errors.New("no table loaded")
	}
	info := &flight.FlightInfo{FlightDescriptor: desc, TotalRecords: -1, TotalBytes: -1,
		Schema: flight.SerializeSchema(m.sc, memory.DefaultAllocator)}
	if !strings.HasSuffix(cmd.GetQuery(), " "+m.table) {
		return info, nil
	}
	for i := range m.parts {
		tkt, err := fsql.CreateStatementQueryTicket([]byte(strconv.Itoa(i)))
		if err != nil {
			return nil, err
		}
		info.Endpoint = append(info.Endpoint, &flight.FlightEndpoint{Ticket: &flight.Ticket{Ticket: tkt}})
	}
	return info, nil
}

// DoGetStatement streams the records of one bucket.
func (m *memFlightSQL) DoGetStatement(_ context.Context, tkt fsql.StatementQueryTicket) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	i, err := strconv.Atoi(string(tkt.GetStatementHandle()))
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil || i < 0 || i >= len(m.parts) {
		return nil, nil, errors.New("no such part")
	}
	recs := m.parts[i]
	for _, r := range recs {
		r.Retain()
	}
	ch := make(chan flight.StreamChunk, len(recs))
	for _, r := range recs {
		ch <- flight.StreamChunk{Data: r}
	}
	close(ch)
	return m.sc, ch, nil
}
