package flussrpc

import "github.com/gofluss/fluss/flussrpc/schema"

// checkDatabase refuses in the client a database name the server would
// refuse (schema.CheckName; a new one also schema.CheckNewName), with the
// server's code, INVALID_DATABASE_EXCEPTION: a name it cannot hold should
// not travel to it (a megabyte-long one once waited out the request
// timeout).
func checkDatabase(name string, isNew bool) error {
	check := schema.CheckName
	if isNew {
		check = schema.CheckNewName
	}
	if err := check("database", name); err != nil {
		return &Error{Code: CodeInvalidDatabase, Message: err.Error()}
	}
	return nil
}

// checkTable is checkDatabase for both names of a path; a bad table name
// is INVALID_TABLE_EXCEPTION.
func checkTable(path TablePath, isNew bool) error {
	if err := checkDatabase(path.Database, false); err != nil {
		return err
	}
	check := schema.CheckName
	if isNew {
		check = schema.CheckNewName
	}
	if err := check("table", path.Table); err != nil {
		return &Error{Code: CodeInvalidTable, Message: err.Error()}
	}
	return nil
}
