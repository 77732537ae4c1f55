package schema

import (
	"fmt"
	"strings"

	"github.com/gofluss/fluss/internal/plural"
)

// MaxIdentifierLength is the longest database, table or partition-value
// name Fluss accepts.
const MaxIdentifierLength = 200

// ReservedPrefix starts names reserved for Fluss-internal objects.
const ReservedPrefix = "__"

// ValidateIdentifier applies Fluss's naming rule for databases, tables and
// partition values: 1..200 ASCII letters, digits, '_' or '-', and not "."
// or "..". With userObject set it also rejects the reserved "__" prefix.
func ValidateIdentifier(name string, userObject bool) error {
	switch {
	case name == "":
		return fmt.Errorf("schema: the empty string is not a valid name")
	case len(name) > MaxIdentifierLength:
		return fmt.Errorf("schema: name %q is longer than %s", name, plural.Count(MaxIdentifierLength, "character"))
	case userObject && strings.HasPrefix(name, ReservedPrefix):
		return fmt.Errorf("schema: name %q uses the reserved prefix %q", name, ReservedPrefix)
	}
	for _, c := range name {
		ok := c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
		if !ok {
			return fmt.Errorf("schema: name %q contains characters other than ASCII letters, digits, '_' and '-'", name)
		}
	}
	return nil
}

// PartitionKeyIndexes returns the column positions of the partition keys.
func (d *TableDescriptor) PartitionKeyIndexes() ([]int, error) {
	return d.Schema.ColumnIndexes(d.PartitionKeys)
}
