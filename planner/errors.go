package planner

import "fmt"

// Error is a planning error: the statement is valid SQL but cannot be
// served by Fluss (or breaks one of its rules). Clause names the part of
// the statement at fault ("WHERE", "SET", "INSERT", "CREATE TABLE", ...)
// and Msg explains what would work instead.
type Error struct {
	Clause string
	Msg    string
}

// Error returns "fluss: " followed by the message.
func (e *Error) Error() string { return "fluss: " + e.Msg }

// errf builds an *Error.
func errf(clause, format string, args ...any) *Error {
	return &Error{Clause: clause, Msg: fmt.Sprintf(format, args...)}
}
