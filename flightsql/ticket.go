package flightsql

import (
	"errors"

	"github.com/gofluss/fluss/engine"
)

// A statement ticket (the handle in TicketStatementQuery) starts with its
// kind: a query to run when the client fetches it, or a result the server
// computed already (the rows of a statement that is not a scan, or nothing
// for DDL and writes run through the query path, as ADBC's cursor.execute
// does).
const (
	ticketQuery  = 'q' // then the transaction id's length (a byte), the id, the query text
	ticketPart   = 'p' // then the part's index and the count of parts (a byte each), then as ticketQuery
	ticketResult = 'r' // then the result's handle
)

// maxParts bounds the parts of a split query in a ticket (the count is
// one byte).
const maxParts = 255

// maxTxID bounds a transaction id in a ticket (its length is one byte);
// the server's ids are 32 characters.
const maxTxID = 255

// ticket is a decoded statement ticket: a result handle, or a query with
// the transaction it runs in and the part of its result to read (a zero
// part: all of it).
type ticket struct {
	result string
	txID   []byte
	query  string
	part   engine.Split
}

// queryTicket encodes a query ticket; txID is one the server issued, part
// one engine.Prepared.ScanParts allowed (at most maxParts parts; only
// outside a transaction, whose lease one stream holds at a time).
func queryTicket(txID []byte, query string, part engine.Split) []byte {
	txID = txID[:min(len(txID), maxTxID)]
	h := withPart(part, []byte{ticketQuery, byte(len(txID))})
	h = append(h, txID...)
	return append(h, query...)
}

// resultTicket encodes a result ticket.
func resultTicket(handle string) []byte {
	return append([]byte{ticketResult}, handle...)
}

// parseTicket decodes a ticket a client sent back; anything malformed is
// an error.
func parseTicket(h []byte) (ticket, error) {
	if len(h) >= 2 && h[0] == ticketResult {
		return ticket{result: string(h[1:])}, nil
	}
	part, h, err := cutPart(h)
	if err != nil {
		return ticket{}, err
	}
	if len(h) >= 2 && h[0] == ticketQuery && len(h) >= 2+int(h[1]) {
		n := int(h[1])
		if n > 0 && part.Of > 1 {
			return ticket{}, errMalformedTicket
		}
		return ticket{txID: h[2 : 2+n], query: string(h[2+n:]), part: part}, nil
	}
	return ticket{}, errMalformedTicket
}

var errMalformedTicket = errors.New("fluss flightsql: malformed statement ticket")

// withPart prefixes h, a query ticket or a prepared statement's handle,
// with the part of the result it reads, unless that is all of it.
func withPart(part engine.Split, h []byte) []byte {
	if part.Of <= 1 {
		return h
	}
	return append([]byte{ticketPart, byte(part.Index), byte(part.Of)}, h...)
}

// cutPart splits what withPart made into the part and h.
func cutPart(h []byte) (engine.Split, []byte, error) {
	if len(h) == 0 || h[0] != ticketPart {
		return engine.Split{}, h, nil
	}
	if len(h) < 3 || h[2] < 2 || h[1] >= h[2] {
		return engine.Split{}, nil, errMalformedTicket
	}
	return engine.Split{Index: int(h[1]), Of: int(h[2])}, h[3:], nil
}

// partHandles are h (a query ticket or prepared statement handle, made
// by handle for a part) for each of the parts a query is read in: one,
// all of it, when parts is 1.
func partHandles(parts int, handle func(engine.Split) []byte) [][]byte {
	if parts <= 1 {
		return [][]byte{handle(engine.Split{})}
	}
	out := make([][]byte, parts)
	for i := range out {
		out[i] = handle(engine.Split{Index: i, Of: parts})
	}
	return out
}
