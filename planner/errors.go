package planner

import "fmt"

// Error is a planning error: the statement is valid SQL but cannot be
// served by Fluss (or breaks one of its rules). Clause names the part of
// the statement at fault ("WHERE", "SET", "INSERT", "CREATE TABLE", ...)
// and Msg explains what would work instead.
type Error struct {
	Clause string
	Msg    string
	// engine marks what only a query engine serves (Session.Engine
	// lifts it).
	engine bool
}

// Error returns "fluss: " followed by the message.
func (e *Error) Error() string { return "fluss: " + e.Msg }

// errf builds an *Error.
func errf(clause, format string, args ...any) *Error {
	return &Error{Clause: clause, Msg: fmt.Sprintf(format, args...)}
}

// engineErrf builds an *Error for what only a query engine serves.
func engineErrf(clause, format string, args ...any) *Error {
	e := errf(clause, format, args...)
	e.engine = true
	return e
}
