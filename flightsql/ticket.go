package flightsql

import (
	"errors"
)

// A statement ticket (the handle in TicketStatementQuery) starts with its
// kind: a query to run when the client fetches it, or a result the server
// computed already (the rows of a statement that is not a scan, or nothing
// for DDL and writes run through the query path, as ADBC's cursor.execute
// does).
const (
	ticketQuery  = 'q' // then the transaction id's length (a byte), the id, the query text
	ticketResult = 'r' // then the result's handle
)

// maxTxID bounds a transaction id in a ticket (its length is one byte);
// the server's ids are 32 characters.
const maxTxID = 255

// ticket is a decoded statement ticket: a result handle, or a query with
// the transaction it runs in.
type ticket struct {
	result string
	txID   []byte
	query  string
}

// queryTicket encodes a query ticket; txID is one the server issued.
func queryTicket(txID []byte, query string) []byte {
	txID = txID[:min(len(txID), maxTxID)]
	h := append([]byte{ticketQuery, byte(len(txID))}, txID...)
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
	if len(h) >= 2 && h[0] == ticketQuery && len(h) >= 2+int(h[1]) {
		n := int(h[1])
		return ticket{txID: h[2 : 2+n], query: string(h[2+n:])}, nil
	}
	return ticket{}, errors.New("fluss flightsql: malformed statement ticket")
}
