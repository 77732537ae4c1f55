package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
)

// ErrorCode is a Fluss server error code, as carried by ErrorResponse and by
// the per-bucket error_code fields of data responses.
type ErrorCode int32

// codeInfo is one row of the error table.
type codeInfo struct {
	name            string
	desc            string
	retriable       bool
	invalidMetadata bool
}

// info returns the table row for c. Codes the client does not know are
// treated as UNKNOWN_SERVER_ERROR, exactly as the Java client does, so a
// newer server cannot make us retry something we do not understand.
func (c ErrorCode) info() codeInfo {
	if ci, ok := codeTable[c]; ok {
		return ci
	}
	return codeTable[CodeUnknownServerError]
}

// canonical folds unknown codes onto CodeUnknownServerError.
func (c ErrorCode) canonical() ErrorCode {
	if _, ok := codeTable[c]; ok {
		return c
	}
	return CodeUnknownServerError
}

// Name returns the server's name for the code, e.g. "TABLE_NOT_EXIST".
// Unknown codes are named UNKNOWN_SERVER_ERROR.
func (c ErrorCode) Name() string { return c.info().name }

// String returns the name and the numeric code, e.g. "TABLE_NOT_EXIST(7)".
func (c ErrorCode) String() string {
	return c.Name() + "(" + strconv.Itoa(int(c)) + ")"
}

// Retriable reports whether the same request may succeed if sent again
// (after a back-off, and after refreshing metadata when InvalidMetadata is
// also true). It says nothing about whether resending is safe: writes are
// only safe to replay with the same writer id and batch sequence.
// RETRIABLE_AUTHENTICATE_EXCEPTION is not retriable in this sense; only the
// connection's authentication loop retries it.
func (c ErrorCode) Retriable() bool { return c.info().retriable }

// InvalidMetadata reports whether the error means the client's view of the
// cluster (bucket leaders, server addresses) is stale and must be refreshed
// before retrying.
func (c ErrorCode) InvalidMetadata() bool { return c.info().invalidMetadata }

// Error is an error reported by a Fluss server: an ERROR_RESPONSE to one
// request, a SERVER_FAILURE for a whole connection, or (built with
// ErrorFromCode) a per-bucket error inside a successful response.
type Error struct {
	// Code is the code exactly as received, even when it is unknown to
	// this client (Name and Retriable then behave as UNKNOWN_SERVER_ERROR).
	Code ErrorCode
	// Message is the server's message; it may be empty, or hold a
	// truncated stack trace for UNKNOWN_SERVER_ERROR.
	Message string
	// API is the request that failed, zero when unknown.
	API APIKey
	// ServerFailure is true when the server reported a connection-level
	// failure; the connection was closed afterwards.
	ServerFailure bool
}

// Error formats the error as "fluss: NAME (code): message".
func (e *Error) Error() string {
	s := "fluss: " + e.Code.Name() + " (" + strconv.Itoa(int(e.Code)) + ")"
	if e.API != 0 {
		s += " from " + e.API.String()
	}
	msg := e.Message
	if msg == "" {
		msg = e.Code.info().desc
	}
	return s + ": " + msg
}

// Is makes errors.Is match on the error code, so
// errors.Is(err, ErrTableNotExist) holds for any TABLE_NOT_EXIST error.
// Unknown codes match ErrUnknownServerError.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	return e.Code.canonical() == t.Code.canonical()
}

// Retriable reports whether the code is retriable (see ErrorCode.Retriable).
func (e *Error) Retriable() bool { return e.Code.Retriable() }

// InvalidMetadata reports whether the code asks for a metadata refresh.
func (e *Error) InvalidMetadata() bool { return e.Code.InvalidMetadata() }

// sentinel builds the comparison value behind an Err* variable.
func sentinel(c ErrorCode) *Error {
	return &Error{Code: c, Message: codeTable[c].desc}
}

// ErrorFromCode turns an error code and message from a response into an
// error; it returns nil for CodeNone (0), which the server uses for
// success. Use it for the per-bucket error fields of data responses.
func ErrorFromCode(code int32, message string) error {
	if code == int32(CodeNone) {
		return nil
	}
	return &Error{Code: ErrorCode(code), Message: message}
}

// TransportError is a failure of the connection itself: dialing, writing,
// reading, or the connection closing while a request was outstanding.
// errors.Is(err, ErrNetwork) holds for it, mirroring how the Java client
// treats connection loss as NETWORK_EXCEPTION (retriable, stale routing).
type TransportError struct {
	// Addr is the server address of the connection.
	Addr string
	// Op is what failed: "dial", "handshake", "write", "read" or "closed".
	Op string
	// MaybeSent is true when any byte of the request may have reached the
	// server, so the request might have been executed.
	MaybeSent bool
	// Err is the underlying cause.
	Err error
}

// Error describes the failed operation and its cause.
func (e *TransportError) Error() string {
	sent := "request not sent"
	if e.MaybeSent {
		sent = "request may have been sent"
	}
	return fmt.Sprintf("flussrpc: %s %s (%s): %v", e.Op, e.Addr, sent, e.Err)
}

// Unwrap returns the cause.
func (e *TransportError) Unwrap() error { return e.Err }

// Is reports true for ErrNetwork; see TransportError.
func (e *TransportError) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == CodeNetwork
}

// SafeToRetry reports whether err proves that the request never left the
// client, so it can be sent again on another connection without risking a
// duplicate. It is true only for transport failures where nothing was
// written; server errors, context errors and anything ambiguous give false.
// The database/sql layer maps true to driver.ErrBadConn.
func SafeToRetry(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var te *TransportError
	return errors.As(err, &te) && !te.MaybeSent
}

// IsRetriable reports whether err is worth retrying after a back-off:
// a retriable server code, or a transport failure other than a refused
// TLS handshake (a wrong certificate or a peer without TLS stays wrong).
func IsRetriable(err error) bool {
	var te *TransportError
	if errors.As(err, &te) {
		return !isPermanentTLSError(te.Err)
	}
	var fe *Error
	return errors.As(err, &fe) && fe.Retriable()
}

// IsInvalidMetadata reports whether err means cached routing is stale: an
// invalid-metadata server code, or a transport failure.
func IsInvalidMetadata(err error) bool {
	var te *TransportError
	if errors.As(err, &te) {
		return true
	}
	var fe *Error
	return errors.As(err, &fe) && fe.InvalidMetadata()
}

// ErrAPINotAdvertised is returned, wrapped with details, when a call names an
// API the connected server did not list in its ApiVersions answer, or whose
// version range does not overlap ours. Such requests are refused locally
// because the server would drop them without any reply.
var ErrAPINotAdvertised = errors.New("flussrpc: API not supported by this server")

// ErrClosed is the cause inside a TransportError for using a connection or
// pool after it was closed by the client.
var ErrClosed = errors.New("flussrpc: closed")
