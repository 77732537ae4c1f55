package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/gofluss/fluss/flussrpc"
)

// Error is a failure reported by the Fluss cluster (or the connection to
// it), with the server's error code. errors.Is matches it against
// flussrpc's sentinels (the driver's are the same values) by code;
// errors.As reaches the native *flussrpc.Error or *flussrpc.TransportError through Unwrap.
// Parse and plan errors are *parser.Error and *planner.Error instead, and
// context errors come back unchanged.
type Error struct {
	// Code is the Fluss error code (flussrpc.CodeNetwork for a broken
	// connection).
	Code flussrpc.ErrorCode
	// Name is the code's name, e.g. TABLE_NOT_EXIST.
	Name string
	// Retriable tells whether the same statement may succeed if tried
	// again later (a leader moving, a timeout). A retried write can
	// duplicate rows only on log tables; upserts and deletes are idempotent.
	Retriable bool
	// Message is the server's message.
	Message string
	// Statement is the start of the statement that failed, for context.
	Statement string

	err error
}

// Error renders "fluss: NAME (code): message".
func (e *Error) Error() string {
	s := fmt.Sprintf("fluss: %s (%d): %s", e.Name, int(e.Code), e.Message)
	if e.Statement != "" {
		s += " [in: " + e.Statement + "]"
	}
	return s
}

// Unwrap returns the native error.
func (e *Error) Unwrap() error { return e.err }

// Is matches another *Error or a *flussrpc.Error with the same code.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case *Error:
		return t.Code == e.Code
	case *flussrpc.Error:
		return errors.Is(e.err, t)
	}
	return false
}

// maxStatementInError bounds how much of a statement an error quotes.
const maxStatementInError = 120

// WrapError turns an error of the native client into an *Error, keeping
// context, parse and plan errors as they are. stmt is the statement text
// ("" when there is none).
func WrapError(err error, stmt string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var fe *flussrpc.Error
	var te *flussrpc.TransportError
	code := flussrpc.ErrorCode(0)
	switch {
	case errors.As(err, &fe):
		code = fe.Code
	case errors.As(err, &te):
		code = flussrpc.CodeNetwork
	default:
		return err
	}
	if len(stmt) > maxStatementInError {
		stmt = stmt[:maxStatementInError] + "..."
	}
	msg := err.Error()
	if fe != nil && fe.Message != "" {
		msg = fe.Message
	}
	return &Error{Code: code, Name: code.Name(), Retriable: code.Retriable(), Message: msg, Statement: stmt, err: err}
}
