package flussgorm

import (
	"database/sql"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/migrator"
	"gorm.io/gorm/schema"
)

// Migrator implements gorm.Migrator for what Fluss can do: create and drop
// tables, add nullable columns, and read the catalog. Everything else
// returns an error wrapping ErrUnsupported that says why.
type Migrator struct {
	migrator.Migrator
}

// AutoMigrate creates the tables of models that have none and adds the
// columns a table lacks; an existing column whose type differs from the
// model's is an error (Fluss cannot alter it). Index and constraint tags
// (gorm.Model's index on deleted_at, foreign keys of associations) are
// skipped with a warning in the logger, since Fluss has neither; an
// explicit CreateIndex or CreateConstraint is refused.
func (m Migrator) AutoMigrate(values ...any) error {
	for _, value := range m.ReorderModels(values, true) {
		if !m.HasTable(value) {
			if err := m.CreateTable(value); err != nil {
				return err
			}
			continue
		}
		err := m.RunWithValue(value, func(stmt *gorm.Statement) error {
			m.warnSkipped(stmt)
			cols, err := m.ColumnTypes(value)
			if err != nil {
				return err
			}
			have := map[string]gorm.ColumnType{}
			for _, c := range cols {
				have[c.Name()] = c
			}
			for _, name := range stmt.Schema.DBNames {
				f := stmt.Schema.FieldsByDBName[name]
				c, ok := have[name]
				if !ok {
					err = m.AddColumn(value, name)
				} else {
					err = m.MigrateColumn(value, f, c)
				}
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// warnSkipped logs the indexes and constraints of a model that Fluss
// cannot create.
func (m Migrator) warnSkipped(stmt *gorm.Statement) {
	ctx := stmt.Context
	for _, idx := range stmt.Schema.ParseIndexes() {
		m.DB.Logger.Warn(ctx, "flussgorm: table %s: index %s skipped: Fluss has no secondary indexes", stmt.Table, idx.Name)
	}
	for _, c := range stmt.Schema.ParseCheckConstraints() {
		m.DB.Logger.Warn(ctx, "flussgorm: table %s: check constraint %s skipped: Fluss has no constraints", stmt.Table, c.Name)
	}
	for _, rel := range stmt.Schema.Relationships.Relations {
		if c := rel.ParseConstraint(); c != nil && c.Schema == stmt.Schema {
			m.DB.Logger.Warn(ctx, "flussgorm: table %s: foreign key %s skipped: Fluss has no foreign keys", stmt.Table, c.Name)
		}
	}
}

// CurrentDatabase returns the session's database.
func (m Migrator) CurrentDatabase() (name string) {
	m.DB.Raw("SELECT DATABASE()").Row().Scan(&name)
	return name
}

// GetTables lists the tables of the current database.
func (m Migrator) GetTables() ([]string, error) {
	var tables []string
	rows, err := m.DB.Raw("SHOW TABLES").Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		tables = append(tables, t)
	}
	return tables, rows.Err()
}

// HasTable reports whether the model's table exists in the current
// database.
func (m Migrator) HasTable(value any) bool {
	var found bool
	_ = m.RunWithValue(value, func(stmt *gorm.Statement) error {
		tables, err := m.GetTables()
		for _, t := range tables {
			found = found || t == stmt.Table
		}
		return err
	})
	return found
}

// CreateTable creates the tables of the models (see TableOptions).
// Indexes and constraints are skipped with a warning, as in AutoMigrate.
func (m Migrator) CreateTable(values ...any) error {
	for _, value := range m.ReorderModels(values, false) {
		err := m.RunWithValue(value, func(stmt *gorm.Statement) error {
			m.warnSkipped(stmt)
			ddl, err := m.createTableSQL(stmt, value)
			if err != nil {
				return err
			}
			return m.DB.Exec(ddl).Error
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// DropTable drops the models' tables if they exist.
func (m Migrator) DropTable(values ...any) error {
	for _, value := range values {
		err := m.RunWithValue(value, func(stmt *gorm.Statement) error {
			return m.DB.Exec("DROP TABLE IF EXISTS " + m.quote(stmt.Table)).Error
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// AddColumn adds a field's column. Fluss adds columns at the end and only
// nullable ones.
func (m Migrator) AddColumn(value any, name string) error {
	return m.RunWithValue(value, func(stmt *gorm.Statement) error {
		f := stmt.Schema.LookUpField(name)
		if f == nil {
			return unsupported("table %s has no field %s", stmt.Table, name)
		}
		if f.NotNull || f.PrimaryKey {
			return unsupported("column %s.%s: Fluss adds only nullable columns; drop the not null tag (or recreate the table)", stmt.Table, f.DBName)
		}
		col, err := m.columnDef(f)
		if err != nil {
			return err
		}
		return m.DB.Exec("ALTER TABLE " + m.quote(stmt.Table) + " ADD COLUMN " + col).Error
	})
}

// HasColumn reports whether the table has the field's column.
func (m Migrator) HasColumn(value any, field string) bool {
	cols, err := m.ColumnTypes(value)
	if err != nil {
		return false
	}
	var name string
	_ = m.RunWithValue(value, func(stmt *gorm.Statement) error {
		name = field
		if f := stmt.Schema.LookUpField(field); f != nil {
			name = f.DBName
		}
		return nil
	})
	for _, c := range cols {
		if c.Name() == name {
			return true
		}
	}
	return false
}

// ColumnTypes describes the table's columns from DESCRIBE: name, type,
// nullability and primary key.
func (m Migrator) ColumnTypes(value any) ([]gorm.ColumnType, error) {
	var out []gorm.ColumnType
	err := m.RunWithValue(value, func(stmt *gorm.Statement) error {
		rows, err := m.DB.Raw("DESCRIBE " + m.quote(stmt.Table)).Rows()
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var name, typ string
			var nullable bool
			var key, extras, comment sql.NullString
			if err := rows.Scan(&name, &typ, &nullable, &key, &extras, &comment); err != nil {
				return err
			}
			dataType, _, _ := strings.Cut(typ, "(")
			out = append(out, migrator.ColumnType{
				NameValue:          sql.NullString{String: name, Valid: true},
				DataTypeValue:      sql.NullString{String: dataType, Valid: true},
				ColumnTypeValue:    sql.NullString{String: typ, Valid: true},
				PrimaryKeyValue:    sql.NullBool{Bool: strings.Contains(key.String, "PRI"), Valid: true},
				NullableValue:      sql.NullBool{Bool: nullable, Valid: true},
				AutoIncrementValue: sql.NullBool{Bool: strings.Contains(extras.String, "AUTO_INCREMENT"), Valid: true},
				UniqueValue:        sql.NullBool{Valid: true},
				CommentValue:       comment,
			})
		}
		return rows.Err()
	})
	return out, err
}

// MigrateColumn checks an existing column against the model. Fluss cannot
// change a column's type, so a different type is an error; nullability and
// comments are left as they are.
func (m Migrator) MigrateColumn(value any, f *schema.Field, ct gorm.ColumnType) error {
	if f.IgnoreMigration {
		return nil
	}
	want := normType(m.DataTypeOf(f))
	have, _ := ct.ColumnType()
	if normType(have) != want {
		return unsupported("column %s is %s in Fluss but the model wants %s; Fluss cannot alter a column's type", f.DBName, have, m.DataTypeOf(f))
	}
	return nil
}

// normType compares types by their text without spaces or case.
func normType(t string) string {
	return strings.ToUpper(strings.ReplaceAll(t, " ", ""))
}

// DropColumn is refused.
func (m Migrator) DropColumn(_ any, name string) error {
	return unsupported("drop column %s: Fluss tables cannot drop columns", name)
}

// AlterColumn is refused.
func (m Migrator) AlterColumn(_ any, field string) error {
	return unsupported("alter column %s: Fluss cannot change a column's type", field)
}

// RenameColumn is refused.
func (m Migrator) RenameColumn(_ any, oldName, _ string) error {
	return unsupported("rename column %s: Fluss cannot rename columns", oldName)
}

// RenameTable is refused.
func (m Migrator) RenameTable(oldName, _ any) error {
	return unsupported("rename table %v: Fluss cannot rename tables", oldName)
}

// HasIndex reports false: Fluss has no secondary indexes.
func (m Migrator) HasIndex(any, string) bool { return false }

// CreateIndex is refused.
func (m Migrator) CreateIndex(_ any, name string) error {
	return unsupported("index %s: Fluss has no secondary indexes (primary-key lookups need none)", name)
}

// DropIndex is refused.
func (m Migrator) DropIndex(_ any, name string) error { return m.CreateIndex(nil, name) }

// RenameIndex is refused.
func (m Migrator) RenameIndex(_ any, name, _ string) error { return m.CreateIndex(nil, name) }

// GetIndexes returns none.
func (m Migrator) GetIndexes(any) ([]gorm.Index, error) { return nil, nil }

// HasConstraint reports false: Fluss has no constraints but the primary key.
func (m Migrator) HasConstraint(any, string) bool { return false }

// CreateConstraint is refused; set gorm.Config.DisableForeignKeyConstraintWhenMigrating
// for models with associations.
func (m Migrator) CreateConstraint(_ any, name string) error {
	return unsupported("constraint %s: Fluss has no foreign keys or check constraints (set DisableForeignKeyConstraintWhenMigrating)", name)
}

// DropConstraint is refused.
func (m Migrator) DropConstraint(_ any, name string) error { return m.CreateConstraint(nil, name) }

// CreateView is refused.
func (m Migrator) CreateView(name string, _ gorm.ViewOption) error {
	return unsupported("view %s: Fluss has no views", name)
}

// DropView is refused.
func (m Migrator) DropView(name string) error { return m.CreateView(name, gorm.ViewOption{}) }
