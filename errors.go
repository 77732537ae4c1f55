package fluss

import (
	"database/sql/driver"
	"errors"

	"github.com/gofluss/fluss/engine"
	"github.com/gofluss/fluss/flussrpc"
)

// Error is a failure reported by the Fluss cluster (or the connection to
// it), with the server's error code; see engine.Error.
type Error = engine.Error

// Sentinels for the server errors applications most often test for, e.g.
// errors.Is(err, fluss.ErrTableNotExist). Every other code has its
// sentinel in package flussrpc, and those match too.
var (
	ErrDatabaseNotExist       = flussrpc.ErrDatabaseNotExist
	ErrDatabaseAlreadyExist   = flussrpc.ErrDatabaseAlreadyExist
	ErrDatabaseNotEmpty       = flussrpc.ErrDatabaseNotEmpty
	ErrTableNotExist          = flussrpc.ErrTableNotExist
	ErrTableAlreadyExist      = flussrpc.ErrTableAlreadyExist
	ErrPartitionNotExists     = flussrpc.ErrPartitionNotExists
	ErrPartitionAlreadyExists = flussrpc.ErrPartitionAlreadyExists
	ErrAuthenticate           = flussrpc.ErrAuthenticate
	ErrAuthorization          = flussrpc.ErrAuthorization
	ErrNetwork                = flussrpc.ErrNetwork
)

// ErrLastInsertID is returned by Result.LastInsertId: Fluss assigns
// auto-increment values on the server and does not report them.
var ErrLastInsertID = errors.New("fluss: LastInsertId is not supported; auto-increment values are assigned server-side — look the row up by key")

// ErrRollbackSent is returned by Rollback of a write batch that had
// already handed rows to the server: those rows cannot be undone.
var ErrRollbackSent = engine.ErrRollbackSent

// connError decides what a failed call means for the pooled connection.
// database/sql retries driver.ErrBadConn on another connection, which is
// only safe when the server cannot have seen the request; this is the one
// place that makes that call. Only two failures qualify: the client was
// closed, or the request met a connection that had already died (nothing
// was sent, and the next attempt dials afresh). A failing dial is reported
// as itself: retrying it at once would only hide the cause.
func connError(err error, stmt string) error {
	if errors.Is(err, flussrpc.ErrClientClosed) {
		return driver.ErrBadConn
	}
	var te *flussrpc.TransportError
	if errors.As(err, &te) && te.Op == "closed" && flussrpc.SafeToRetry(err) {
		return driver.ErrBadConn
	}
	return engine.WrapError(err, stmt)
}
