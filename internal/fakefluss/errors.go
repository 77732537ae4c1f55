package fakefluss

import (
	"errors"
	"fmt"
)

// Error codes the model answers with (the server's numbering).
const (
	codeUnknownServerError  = -1
	codeUnsupportedVersion  = 2
	codeCorruptMessage      = 3
	codeDatabaseNotExist    = 4
	codeDatabaseNotEmpty    = 5
	codeDatabaseExists      = 6
	codeTableNotExist       = 7
	codeTableExists         = 8
	codeSchemaNotExist      = 9
	codeNotLeader           = 12
	codeLogOffsetOutOfRange = 19
	codeCorruptRecord       = 14
	codeInvalidTable        = 15
	codeNonPrimaryKeyTable  = 20
	codeUnknownBucket       = 21
	codePartitionNotExists  = 36
)

// serverError is an error the model answers a request with.
type serverError struct {
	code int32
	msg  string
}

func (e serverError) Error() string { return fmt.Sprintf("code %d: %s", e.code, e.msg) }

func asServerError(err error) serverError {
	var e serverError
	if errors.As(err, &e) {
		return e
	}
	return serverError{codeUnknownServerError, err.Error()}
}
