package schema

import (
	"errors"
	"fmt"
	"strings"
)

// MaxNameLength is the longest database or table name Fluss holds.
const MaxNameLength = 200

// reservedPrefix starts the names Fluss keeps for itself.
const reservedPrefix = "__"

// ErrInvalidName is matched (errors.Is) by every error CheckName and
// CheckNewName return.
var ErrInvalidName = errors.New("invalid name")

// NameError is a name Fluss cannot hold.
type NameError struct {
	What string // "database", "table", ...
	Name string
	Why  string
}

// Error shows at most the first 40 characters of the name: a name is
// refused for being too long, and a megabyte of it helps no one.
func (e *NameError) Error() string {
	name := e.Name
	if len(name) > 40 {
		name = fmt.Sprintf("%s… (%d characters)", name[:40], len(name))
	}
	return fmt.Sprintf("%s name %q is invalid: %s (names are 1 to %d characters of A-Z, a-z, 0-9, '_' and '-', and new ones must not start with %q)",
		e.What, name, e.Why, MaxNameLength, reservedPrefix)
}

// Is makes a NameError match ErrInvalidName.
func (e *NameError) Is(target error) bool { return target == ErrInvalidName }

// CheckName checks a database or table name (what says which) against
// Fluss's rules, so that a name the server could never hold fails at
// once instead of travelling to it.
func CheckName(what, name string) error {
	bad := func(why string) error { return &NameError{What: what, Name: name, Why: why} }
	switch {
	case name == "":
		return bad("it is empty")
	case len(name) > MaxNameLength:
		return bad(fmt.Sprintf("it is longer than %d characters", MaxNameLength))
	}
	for _, c := range name {
		if !(c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return bad(fmt.Sprintf("%q is not allowed", c))
		}
	}
	return nil
}

// CheckNewName is CheckName for a name being created, which also must not
// start with the prefix Fluss reserves ("__").
func CheckNewName(what, name string) error {
	if err := CheckName(what, name); err != nil {
		return err
	}
	if strings.HasPrefix(name, reservedPrefix) {
		return &NameError{What: what, Name: name, Why: fmt.Sprintf("the prefix %q is reserved", reservedPrefix)}
	}
	return nil
}

// Check checks both names of the path (CheckName).
func (p TablePath) Check() error {
	if err := CheckName("database", p.Database); err != nil {
		return err
	}
	return CheckName("table", p.Table)
}
