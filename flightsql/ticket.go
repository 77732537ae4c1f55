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
// one engine.Prepared.ScanParts allowed (at most maxParts parts).
func queryTicket(txID []byte, query string, part engine.Split) []byte {
	txID = txID[:min(len(txID), maxTxID)]
	var h []byte
	if part.Of > 1 {
		h = []byte{ticketPart, byte(part.Index), byte(part.Of)}
	}
	h = append(h, ticketQuery, byte(len(txID)))
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
	var part engine.Split
	if len(h) >= 3 && h[0] == ticketPart {
		part = engine.Split{Index: int(h[1]), Of: int(h[2])}
		if part.Of < 2 || part.Index >= part.Of {
			return ticket{}, errMalformedTicket
		}
		h = h[3:]
	}
	if len(h) >= 2 && h[0] == ticketQuery && len(h) >= 2+int(h[1]) {
		n := int(h[1])
		return ticket{txID: h[2 : 2+n], query: string(h[2+n:]), part: part}, nil
	}
	return ticket{}, errMalformedTicket
}

var errMalformedTicket = errors.New("fluss flightsql: malformed statement ticket")

// partTickets are the query tickets of the parts a query is read in, one
// for all of it when it is read whole (parts 1).
func partTickets(txID []byte, query string, parts int) [][]byte {
	if parts <= 1 {
		return [][]byte{queryTicket(txID, query, engine.Split{})}
	}
	out := make([][]byte, parts)
	for i := range out {
		out[i] = queryTicket(txID, query, engine.Split{Index: i, Of: parts})
	}
	return out
}
