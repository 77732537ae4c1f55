package flightsql

import (
	"bytes"
	"testing"

	"github.com/gofluss/fluss/engine"
)

func TestTicketRoundTrip(t *testing.T) {
	tests := []struct {
		txID  []byte
		query string
	}{
		{nil, "SELECT 1"},
		{[]byte("0123456789abcdef0123456789abcdef"), "SELECT * FROM t"},
		{nil, ""},
	}
	for _, tt := range tests {
		parts := []engine.Split{{}}
		if tt.txID == nil {
			parts = append(parts, engine.Split{Index: 0, Of: 2}, engine.Split{Index: 3, Of: 4})
		}
		for _, part := range parts {
			got, err := parseTicket(queryTicket(tt.txID, tt.query, part))
			if err != nil || got.result != "" || !bytes.Equal(got.txID, tt.txID) || got.query != tt.query || got.part != part {
				t.Errorf("query ticket (%q, %q, %+v) = %+v, %v", tt.txID, tt.query, part, got, err)
			}
		}
	}
	if got, err := parseTicket(resultTicket("abc")); err != nil || got.result != "abc" {
		t.Errorf("result ticket = %+v, %v", got, err)
	}
	for _, bad := range [][]byte{nil, {}, {ticketQuery}, {ticketQuery, 5, 'a'}, {ticketResult}, {'x', 0},
		{ticketPart, 0, 1, ticketQuery, 0}, {ticketPart, 2, 2, ticketQuery, 0}, {ticketPart, 0, 2}, {ticketPart, 0, 2, ticketResult, 'a'},
		{ticketPart, 0, 2, ticketQuery, 1, 'x'}} {
		if _, err := parseTicket(bad); err == nil {
			t.Errorf("parseTicket(%q) accepted", bad)
		}
	}
}

// FuzzParseTicket: any bytes a client sends back as a ticket decode or
// fail, never panic, and decoded query tickets encode back the same.
func FuzzParseTicket(f *testing.F) {
	f.Add(queryTicket(nil, "SELECT 1", engine.Split{}))
	f.Add(queryTicket([]byte("0123456789abcdef0123456789abcdef"), "SELECT * FROM t", engine.Split{}))
	f.Add(queryTicket(nil, "SELECT * FROM t", engine.Split{Index: 1, Of: 4}))
	f.Add(resultTicket("0123456789abcdef"))
	f.Add([]byte{ticketQuery, 200, 'x'})
	f.Fuzz(func(t *testing.T, h []byte) {
		tk, err := parseTicket(h)
		if err != nil || tk.result != "" {
			return
		}
		if again := queryTicket(tk.txID, tk.query, tk.part); !bytes.Equal(again, h) {
			t.Errorf("ticket %q decodes to %+v, which encodes to %q", h, tk, again)
		}
	})
}

// FuzzDecodeBasic: hostile authorization headers fail cleanly.
func FuzzDecodeBasic(f *testing.F) {
	f.Add("YWRtaW46YWRtaW4tc2VjcmV0")
	f.Add("YWRtaW46YWRtaW4tc2VjcmV0==")
	f.Add("bm9jb2xvbg")
	f.Add("!!!")
	f.Fuzz(func(t *testing.T, cred string) {
		name, password, err := decodeBasic(cred)
		if err == nil && (name+":"+password == "" || len(name)+len(password)+1 > len(cred)) {
			t.Errorf("decodeBasic(%q) = %q, %q", cred, name, password)
		}
	})
}
