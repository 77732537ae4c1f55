package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// AggFunction is the aggregation function of a non-key column in a table
// using the aggregation merge engine. Type is the lower-case Fluss name
// ("sum", "max", "listagg", ...); Params may be nil.
type AggFunction struct {
	Type   string
	Params map[string]string
}

// Column is one top-level column of a schema. ID is the stable column id
// (UnknownID until assigned); Comment is empty when absent.
type Column struct {
	Name        string
	Type        DataType
	Comment     string
	ID          int
	AggFunction *AggFunction
}

// NewColumn returns a column with no comment and an unknown id.
func NewColumn(name string, t DataType) Column {
	return Column{Name: name, Type: t, ID: UnknownID}
}

// Schema is a table's columns plus key metadata.
type Schema struct {
	Columns              []Column
	PrimaryKey           []string // empty for log tables
	AutoIncrementColumns []string
	// HighestFieldID is the largest column/field id ever handed out; new
	// columns added by ALTER TABLE get ids above it.
	HighestFieldID int
}

// NewSchema builds a schema for a new table the way the Java client's
// Schema.Builder.column(...) calls do: every column and nested ROW field gets
// a fresh id from one counter starting at 0 (pre-order: the column, then its
// nested fields), primary-key columns become NOT NULL, and the result is
// validated. Ids already present on cols are ignored.
func NewSchema(cols []Column, primaryKey []string, autoIncrement []string) (Schema, error) {
	next := -1
	out := make([]Column, len(cols))
	for i, c := range cols {
		next++
		c.ID = next
		c.Type = reassignIDs(c.Type.Clone(), &next)
		out[i] = c
	}
	s := Schema{
		Columns:              out,
		PrimaryKey:           slices.Clone(primaryKey),
		AutoIncrementColumns: slices.Clone(autoIncrement),
		HighestFieldID:       next,
	}
	s.normalizeKeys()
	return s, s.Validate()
}

// reassignIDs numbers nested ROW fields in place (t must be a private copy).
func reassignIDs(t DataType, next *int) DataType {
	switch t.Root {
	case RootArray:
		*t.Elem = reassignIDs(*t.Elem, next)
	case RootMap:
		*t.Key = reassignIDs(*t.Key, next)
		*t.Value = reassignIDs(*t.Value, next)
	case RootRow:
		for i := range t.Fields {
			*next++
			t.Fields[i].ID = *next
			t.Fields[i].Type = reassignIDs(t.Fields[i].Type, next)
		}
	}
	return t
}

// normalizeKeys makes primary-key columns NOT NULL, as Java does whenever a
// Schema is built (including when it is read from JSON).
func (s *Schema) normalizeKeys() {
	for i := range s.Columns {
		if slices.Contains(s.PrimaryKey, s.Columns[i].Name) {
			s.Columns[i].Type = s.Columns[i].Type.NotNull()
		}
	}
}

// ColumnIndex returns the position of the named column, or -1.
func (s *Schema) ColumnIndex(name string) int {
	for i := range s.Columns {
		if s.Columns[i].Name == name {
			return i
		}
	}
	return -1
}

// ColumnIndexes returns the positions of the named columns, or an error
// naming the first one that does not exist.
func (s *Schema) ColumnIndexes(names []string) ([]int, error) {
	idx := make([]int, len(names))
	for i, n := range names {
		if idx[i] = s.ColumnIndex(n); idx[i] < 0 {
			return nil, fmt.Errorf("schema: column %q does not exist", n)
		}
	}
	return idx, nil
}

// ColumnByID returns the position of the column with the given id, or -1.
func (s *Schema) ColumnByID(id int) int {
	for i := range s.Columns {
		if s.Columns[i].ID == id {
			return i
		}
	}
	return -1
}

// HasPrimaryKey reports whether the schema declares a primary key.
func (s *Schema) HasPrimaryKey() bool { return len(s.PrimaryKey) > 0 }

// RowType returns the schema as a NOT NULL ROW type whose fields carry the
// column names, types, comments and ids.
func (s *Schema) RowType() DataType {
	fields := make([]Field, len(s.Columns))
	for i, c := range s.Columns {
		fields[i] = Field{Name: c.Name, Type: c.Type, Description: c.Comment, ID: c.ID}
	}
	return DataType{Root: RootRow, Fields: fields}
}

// Types returns the column types in order.
func (s *Schema) Types() []DataType {
	ts := make([]DataType, len(s.Columns))
	for i, c := range s.Columns {
		ts[i] = c.Type
	}
	return ts
}

// Validate checks column types, unique names, unique ids (including nested
// fields), HighestFieldID, and the primary-key / auto-increment / aggregation
// rules of Java's Schema.
func (s *Schema) Validate() error {
	names := make(map[string]struct{}, len(s.Columns))
	for _, c := range s.Columns {
		if c.Name == "" {
			return errors.New("schema: column name must not be empty")
		}
		if _, dup := names[c.Name]; dup {
			return fmt.Errorf("schema: duplicate column %q", c.Name)
		}
		names[c.Name] = struct{}{}
		if err := c.Type.Validate(); err != nil {
			return fmt.Errorf("schema: column %q: %w", c.Name, err)
		}
	}
	if err := s.validateIDs(); err != nil {
		return err
	}
	return s.validateKeys(names)
}

func (s *Schema) validateIDs() error {
	ids := map[int]struct{}{}
	maxID := -1
	var dup error
	add := func(id int) {
		if id == UnknownID {
			return // unnumbered nested fields (old documents) cannot collide
		}
		if _, ok := ids[id]; ok && dup == nil {
			dup = fmt.Errorf("schema: field id %d is used twice", id)
		}
		ids[id] = struct{}{}
		maxID = max(maxID, id)
	}
	for _, c := range s.Columns {
		if c.ID == UnknownID {
			return fmt.Errorf("schema: column %q has no id (build new schemas with NewSchema)", c.Name)
		}
		add(c.ID)
		walkFieldIDs(c.Type, add)
	}
	if dup != nil {
		return dup
	}
	if len(s.Columns) > 0 && s.HighestFieldID < maxID {
		return fmt.Errorf("schema: highest field id %d is below the largest id %d", s.HighestFieldID, maxID)
	}
	return nil
}

func walkFieldIDs(t DataType, fn func(int)) {
	switch t.Root {
	case RootArray:
		if t.Elem != nil {
			walkFieldIDs(*t.Elem, fn)
		}
	case RootMap:
		if t.Key != nil && t.Value != nil {
			walkFieldIDs(*t.Key, fn)
			walkFieldIDs(*t.Value, fn)
		}
	case RootRow:
		for _, f := range t.Fields {
			fn(f.ID)
			walkFieldIDs(f.Type, fn)
		}
	}
}

func (s *Schema) validateKeys(names map[string]struct{}) error {
	if !s.HasPrimaryKey() {
		if len(s.AutoIncrementColumns) > 0 {
			return errors.New("schema: auto increment columns need a primary-key table")
		}
		return nil
	}
	for i, k := range s.PrimaryKey {
		if _, ok := names[k]; !ok {
			return fmt.Errorf("schema: primary key column %q does not exist", k)
		}
		if slices.Contains(s.PrimaryKey[:i], k) {
			return fmt.Errorf("schema: primary key column %q listed twice", k)
		}
	}
	if len(s.AutoIncrementColumns) > 1 {
		return errors.New("schema: at most one auto increment column is supported")
	}
	for _, a := range s.AutoIncrementColumns {
		i := s.ColumnIndex(a)
		switch {
		case i < 0:
			return fmt.Errorf("schema: auto increment column %q does not exist", a)
		case slices.Contains(s.PrimaryKey, a):
			return fmt.Errorf("schema: auto increment column %q cannot be part of the primary key", a)
		case s.Columns[i].Type.Root != RootInt && s.Columns[i].Type.Root != RootBigInt:
			return fmt.Errorf("schema: auto increment column %q must be INT or BIGINT", a)
		}
	}
	for _, c := range s.Columns {
		if c.AggFunction != nil && slices.Contains(s.PrimaryKey, c.Name) {
			return fmt.Errorf("schema: primary key column %q cannot have an aggregation function", c.Name)
		}
	}
	return nil
}

// JSON keys of ColumnJsonSerde and SchemaJsonSerde.
const (
	keyVersion        = "version"
	keyColumns        = "columns"
	keyPrimaryKey     = "primary_key"
	keyAutoIncrement  = "auto_increment_column"
	keyHighestFieldID = "highest_field_id"
	keyColName        = "name"
	keyColID          = "id"
	keyColDataType    = "data_type"
	keyColComment     = "comment"
	keyAggFunction    = "agg_function"
	keyAggType        = "type"
	keyAggParams      = "parameters"
	jsonVersion       = 1
)

// MarshalJSON encodes the column as ColumnJsonSerde does.
func (c Column) MarshalJSON() ([]byte, error) {
	if err := c.Type.Validate(); err != nil {
		return nil, err
	}
	var w jsonWriter
	c.writeJSON(&w)
	return w.buf.Bytes(), nil
}

func (c Column) writeJSON(w *jsonWriter) {
	w.beginObject()
	w.strField(keyColName, c.Name)
	w.key(keyColDataType)
	c.Type.writeJSON(w)
	if c.Comment != "" {
		w.strField(keyColComment, c.Comment)
	}
	if c.AggFunction != nil {
		w.key(keyAggFunction)
		w.beginObject()
		w.strField(keyAggType, c.AggFunction.Type)
		if len(c.AggFunction.Params) > 0 {
			w.stringMap(keyAggParams, c.AggFunction.Params)
		}
		w.endObject()
	}
	w.numField(keyColID, c.ID)
	w.endObject()
}

// UnmarshalJSON decodes a column; a missing "id" yields UnknownID.
func (c *Column) UnmarshalJSON(data []byte) error {
	o, err := decodeObject(data)
	if err != nil {
		return err
	}
	col, err := columnFromObject(o)
	if err != nil {
		return err
	}
	*c = col
	return nil
}

func columnFromObject(o jsonObject) (Column, error) {
	var c Column
	var err error
	if c.Name, err = o.str(keyColName); err != nil {
		return c, err
	}
	t, err := o.child(keyColDataType, 0)
	if err != nil {
		return c, err
	}
	if err := t.Validate(); err != nil {
		return c, fmt.Errorf("schema: column %q: %w", c.Name, err)
	}
	c.Type = *t
	if c.Comment, err = o.optStr(keyColComment); err != nil {
		return c, err
	}
	if c.ID, err = o.optInt(keyColID, UnknownID); err != nil {
		return c, err
	}
	c.AggFunction, err = aggFromObject(o)
	return c, err
}

func aggFromObject(o jsonObject) (*AggFunction, error) {
	if !o.has(keyAggFunction) {
		return nil, nil
	}
	ao, err := decodeObject(o[keyAggFunction])
	if err != nil {
		return nil, err
	}
	typ, err := ao.str(keyAggType)
	if err != nil {
		return nil, err
	}
	agg := &AggFunction{Type: typ}
	if ao.has(keyAggParams) {
		if agg.Params, err = ao.strMap(keyAggParams); err != nil {
			return nil, err
		}
	}
	return agg, nil
}

// MarshalJSON encodes the schema as SchemaJsonSerde does ("version":1,
// columns, optional primary_key and auto_increment_column,
// highest_field_id).
func (s Schema) MarshalJSON() ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var w jsonWriter
	s.writeJSON(&w)
	return w.buf.Bytes(), nil
}

func (s Schema) writeJSON(w *jsonWriter) {
	w.beginObject()
	w.numField(keyVersion, jsonVersion)
	w.key(keyColumns)
	w.beginArray()
	for _, c := range s.Columns {
		c.writeJSON(w)
	}
	w.endArray()
	if len(s.PrimaryKey) > 0 {
		w.strings(keyPrimaryKey, s.PrimaryKey)
	}
	if len(s.AutoIncrementColumns) > 0 {
		w.strings(keyAutoIncrement, s.AutoIncrementColumns)
	}
	w.numField(keyHighestFieldID, s.HighestFieldID)
	w.endObject()
}

// UnmarshalJSON decodes a schema. As in Java: when no column carries an id
// (documents from old versions) ids are assigned by position; when all do,
// the highest id (including nested fields) is derived, and an explicit
// highest_field_id overrides it; a mix is an error. Primary-key columns
// become NOT NULL.
func (s *Schema) UnmarshalJSON(data []byte) error {
	o, err := decodeObject(data)
	if err != nil {
		return err
	}
	out, err := schemaFromObject(o)
	if err != nil {
		return err
	}
	*s = out
	return nil
}

func schemaFromObject(o jsonObject) (Schema, error) {
	var s Schema
	var raws []json.RawMessage
	if err := json.Unmarshal(o[keyColumns], &raws); err != nil {
		return s, fmt.Errorf("schema: key %q: %w", keyColumns, err)
	}
	s.Columns = make([]Column, 0, len(raws))
	for _, raw := range raws {
		co, err := decodeObject(raw)
		if err != nil {
			return s, err
		}
		c, err := columnFromObject(co)
		if err != nil {
			return s, err
		}
		s.Columns = append(s.Columns, c)
	}
	if err := s.adoptIDs(); err != nil {
		return s, err
	}
	var err error
	if s.PrimaryKey, err = o.strList(keyPrimaryKey); err != nil {
		return s, err
	}
	if s.AutoIncrementColumns, err = o.strList(keyAutoIncrement); err != nil {
		return s, err
	}
	if s.HighestFieldID, err = o.optInt(keyHighestFieldID, s.HighestFieldID); err != nil {
		return s, err
	}
	s.normalizeKeys()
	return s, s.Validate()
}

// adoptIDs applies Java's Schema.Builder.fromColumns id rules.
func (s *Schema) adoptIDs() error {
	known := 0
	for _, c := range s.Columns {
		if c.ID != UnknownID {
			known++
		}
	}
	switch known {
	case 0:
		for i := range s.Columns {
			s.Columns[i].ID = i
		}
		s.HighestFieldID = len(s.Columns) - 1
	case len(s.Columns):
		s.HighestFieldID = -1
		for _, c := range s.Columns {
			s.HighestFieldID = max(s.HighestFieldID, c.ID)
			walkFieldIDs(c.Type, func(id int) { s.HighestFieldID = max(s.HighestFieldID, id) })
		}
	default:
		return errors.New("schema: either all columns or none must carry an id")
	}
	return nil
}
