package parser

import "strings"

func (p *parser) ifNotExists() bool { return p.acceptWords("IF", "NOT", "EXISTS") }
func (p *parser) ifExists() bool    { return p.acceptWords("IF", "EXISTS") }

func (p *parser) optComment() *string {
	if p.acceptWords("COMMENT") {
		p.acceptOp("=")
		s := p.stringLit("comment string")
		return &s
	}
	return nil
}

func (p *parser) create(meta Meta) Statement {
	p.expectWord("CREATE")
	if p.peek().is("OR") {
		return unsupported(meta, "CREATE OR REPLACE", "CREATE OR REPLACE is not supported; drop the object and create it again")
	}
	temporary := p.acceptWords("TEMPORARY")
	if !temporary && p.acceptWords("TEMP") {
		temporary = true
	}
	switch {
	case p.peek().is("TABLE"):
		return p.createTable(meta, temporary)
	case !temporary && (p.peek().is("DATABASE") || p.peek().is("SCHEMA")):
		return p.createDatabase(meta)
	case !temporary && p.peek().is("CATALOG"):
		p.next()
		c := &CreateCatalog{Meta: meta}
		c.IfNotExists = p.ifNotExists()
		c.Name = p.ident("catalog name")
		c.Comment = p.optComment()
		p.expectWord("WITH")
		c.Options = p.optionList()
		p.expectEnd()
		return c
	case p.peek().is("VIEW"):
		return unsupported(meta, "CREATE VIEW", "views are not supported by Fluss; define the view in Flink SQL")
	case p.peek().is("FUNCTION") || p.peek().is("SYSTEM"):
		return unsupported(meta, "CREATE FUNCTION", "functions are not supported by the fluss driver; register them in Flink SQL")
	case p.peek().is("MATERIALIZED"):
		return unsupported(meta, "CREATE MATERIALIZED TABLE", "materialized tables require a Flink job; create them from Flink SQL")
	case p.peek().is("INDEX") || p.peek().is("UNIQUE"):
		return unsupported(meta, "CREATE INDEX", "secondary indexes are not supported by Fluss")
	case p.peek().is("USER") || p.peek().is("ROLE"):
		return unsupported(meta, "CREATE USER", "users and roles are managed with CALL sys.add_acl(...)")
	}
	p.fail("TABLE, DATABASE or CATALOG", "")
	return nil
}

func (p *parser) createDatabase(meta Meta) Statement {
	p.next() // DATABASE | SCHEMA
	c := &CreateDatabase{Meta: meta}
	c.IfNotExists = p.ifNotExists()
	c.Name = p.databaseName()
	for !p.atEnd() {
		switch {
		case p.peek().is("COMMENT") && c.Comment == nil:
			c.Comment = p.optComment()
		case p.peek().is("WITH") && c.Options == nil:
			p.next()
			c.Options = p.optionList()
		case p.peek().is("DEFAULT") || p.peek().is("CHARACTER") || p.peek().is("CHARSET") || p.peek().is("COLLATE"):
			// MySQL: [DEFAULT] CHARACTER SET x / COLLATE x. Ignored.
			p.acceptWords("DEFAULT")
			if !p.acceptWords("CHARACTER", "SET") && !p.acceptWords("CHARSET") && !p.acceptWords("COLLATE") {
				p.fail("CHARACTER SET or COLLATE", "")
			}
			p.acceptOp("=")
			p.optionValue()
		default:
			p.fail("COMMENT, WITH or end of statement", "")
		}
	}
	return c
}

func (p *parser) createTable(meta Meta, temporary bool) Statement {
	p.expectWord("TABLE")
	c := &CreateTable{Meta: meta, Temporary: temporary}
	c.IfNotExists = p.ifNotExists()
	c.Name = p.tableName()
	if p.peek().is("AS") {
		return unsupported(meta, "CREATE TABLE AS SELECT", "CREATE TABLE ... AS SELECT needs a query engine; create the table, then run INSERT ... SELECT in Flink SQL")
	}
	if p.peek().is("(") {
		p.next()
		for {
			p.tableElement(c)
			if p.acceptOp(",") {
				continue
			}
			p.expectOp(")")
			break
		}
	}
	for !p.atEnd() {
		t := p.peek()
		switch {
		case t.is("COMMENT") && c.Comment == nil:
			c.Comment = p.optComment()
		case t.is("PARTITIONED") && c.PartitionBy == nil:
			p.next()
			p.expectWord("BY")
			c.PartitionBy = p.identList("partition column")
		case t.is("DISTRIBUTED") && c.Distribution == nil:
			c.Distribution = p.distribution()
		case t.is("WITH") && c.Options == nil:
			p.next()
			c.Options = p.optionList()
		case t.is("LIKE") && c.Like == nil:
			p.next()
			c.Like = &LikeClause{Source: p.tableName()}
			if p.peek().is("(") {
				p.next()
				for {
					mode := strings.ToUpper(p.peek().Text)
					if mode != "INCLUDING" && mode != "EXCLUDING" && mode != "OVERWRITING" {
						p.fail("INCLUDING, EXCLUDING or OVERWRITING", "")
					}
					p.next()
					feat := strings.ToUpper(p.peek().Text)
					switch feat {
					case "ALL", "CONSTRAINTS", "PARTITIONS", "OPTIONS", "WATERMARKS", "GENERATED", "METADATA", "DISTRIBUTION":
					default:
						p.fail("ALL, CONSTRAINTS, PARTITIONS, OPTIONS, WATERMARKS, GENERATED, METADATA or DISTRIBUTION", "")
					}
					p.next()
					c.Like.Options = append(c.Like.Options, LikeOption{Mode: mode, Feature: feat})
					if p.acceptOp(",") {
						continue
					}
					if p.peek().is(")") {
						p.next()
						break
					}
				}
			}
		case t.is("AS"):
			return unsupported(meta, "CREATE TABLE AS SELECT", "CREATE TABLE ... AS SELECT needs a query engine; create the table, then run INSERT ... SELECT in Flink SQL")
		case t.Kind == TokWord && mysqlTableOptionNames[strings.ToUpper(t.Text)]:
			// MySQL table options: ENGINE=InnoDB DEFAULT CHARSET=utf8 ...
			c.MySQLTableOptions = append(c.MySQLTableOptions, p.mysqlTableOption())
		default:
			p.fail("COMMENT, PARTITIONED BY, WITH, LIKE or end of statement", "")
		}
	}
	if len(c.Columns) == 0 && c.Like == nil {
		p.fail("a column list or LIKE", "CREATE TABLE needs columns")
	}
	return c
}

var mysqlTableOptionNames = map[string]bool{
	"ENGINE": true, "DEFAULT": true, "CHARSET": true, "CHARACTER": true, "COLLATE": true, "AUTO_INCREMENT": true,
	"ROW_FORMAT": true, "KEY_BLOCK_SIZE": true, "AVG_ROW_LENGTH": true, "CHECKSUM": true, "COMPRESSION": true,
	"MAX_ROWS": true, "MIN_ROWS": true, "PACK_KEYS": true, "STATS_AUTO_RECALC": true, "STATS_PERSISTENT": true,
	"TABLESPACE": true, "STORAGE": true,
}

// mysqlTableOption parses [DEFAULT] name [SET] [=] value.
func (p *parser) mysqlTableOption() string {
	start := p.peek()
	p.acceptWords("DEFAULT")
	p.next()
	p.acceptWords("SET")
	p.acceptOp("=")
	p.optionValue()
	return p.textFrom(start)
}

func (p *parser) distribution() *Distribution {
	p.expectWord("DISTRIBUTED")
	d := &Distribution{}
	if p.acceptWords("BY") {
		if w := strings.ToUpper(p.peek().Text); p.peek().Kind == TokWord && (w == "HASH" || w == "RANGE" || w == "RANDOM") {
			d.Kind = w
			p.next()
		}
		d.Columns = p.identList("bucket key column")
	}
	if p.acceptWords("INTO") {
		d.Buckets = p.intLiteral()
		p.expectWord("BUCKETS")
	} else if d.Columns == nil {
		p.fail("BY or INTO", "")
	}
	return d
}

// isTypeStart reports whether token t can begin a column type.
func isTypeStart(t Token) bool { return t.Kind == TokWord && typeStartWords[strings.ToUpper(t.Text)] }

// tableElement parses one element of the CREATE TABLE list.
func (p *parser) tableElement(c *CreateTable) {
	t := p.peek()
	switch {
	case t.is("CONSTRAINT") && p.peekAt(2).is("PRIMARY"):
		pos := t.Pos
		p.next()
		name := p.ident("constraint name")
		pk := p.primaryKey(pos)
		pk.ConstraintName = name
		p.setPK(c, pk, t)
		return
	case t.is("PRIMARY") && p.peekAt(1).is("KEY"):
		p.setPK(c, p.primaryKey(t.Pos), t)
		return
	case t.is("WATERMARK") && p.peekAt(1).is("FOR"):
		c.Watermarks = append(c.Watermarks, p.watermark())
		return
	case t.Kind == TokWord && p.isMySQLIndex():
		c.MySQLIndexes = append(c.MySQLIndexes, p.skipElement())
		return
	}
	c.Columns = append(c.Columns, p.columnDef(true))
}

func (p *parser) setPK(c *CreateTable, pk *PrimaryKey, at Token) {
	if c.PrimaryKey != nil {
		p.failAt(at, "", "a table can have only one PRIMARY KEY")
	}
	c.PrimaryKey = pk
}

// isMySQLIndex reports whether the next element is a MySQL index or
// constraint definition (KEY idx (...), UNIQUE KEY, INDEX, FOREIGN KEY, CHECK).
func (p *parser) isMySQLIndex() bool {
	w := strings.ToUpper(p.peek().Text)
	n1 := p.peekAt(1)
	switch w {
	case "KEY", "INDEX", "FULLTEXT", "SPATIAL":
		return n1.is("(") || (n1.Kind == TokWord || n1.Kind == TokQuotedIdent) && !isTypeStart(n1) && p.peekAt(2).is("(")
	case "UNIQUE":
		return n1.is("KEY") || n1.is("INDEX") || n1.is("(")
	case "FOREIGN":
		return n1.is("KEY")
	case "CHECK":
		return n1.is("(")
	case "CONSTRAINT":
		return true
	}
	return false
}

// skipElement consumes tokens up to the next ',' or ')' at depth 0 and
// returns their text.
func (p *parser) skipElement() string {
	start := p.peek()
	depth := 0
	for !p.atEnd() {
		t := p.peek()
		if depth == 0 && (t.is(",") || t.is(")")) {
			break
		}
		if t.is("(") {
			depth++
		} else if t.is(")") {
			depth--
		}
		p.next()
	}
	return p.textFrom(start)
}

// exprText consumes an expression up to ',' or ')' at depth 0 (or one of
// the stop words at depth 0) and returns its source text.
func (p *parser) exprText(what string, stopWords ...string) string {
	start := p.peek()
	depth := 0
loop:
	for !p.atEnd() {
		t := p.peek()
		if depth == 0 {
			if t.is(",") || t.is(")") {
				break
			}
			for _, w := range stopWords {
				if t.Kind == TokWord && t.is(w) {
					break loop
				}
			}
		}
		if t.is("(") || t.is("[") {
			depth++
		} else if t.is(")") || t.is("]") {
			depth--
		}
		p.next()
	}
	if p.peek() == start {
		p.fail(what, "")
	}
	return p.textFrom(start)
}

func (p *parser) primaryKey(pos Pos) *PrimaryKey {
	p.expectWord("PRIMARY")
	p.expectWord("KEY")
	pk := &PrimaryKey{Pos: pos}
	pk.Columns = p.identList("primary key column")
	pk.NotEnforced = p.acceptWords("NOT", "ENFORCED")
	return pk
}

func (p *parser) watermark() *Watermark {
	pos := p.peek().Pos
	p.expectWord("WATERMARK")
	p.expectWord("FOR")
	w := &Watermark{Pos: pos, Column: p.ident("watermark column")}
	p.expectWord("AS")
	w.Expr = p.exprText("watermark expression")
	return w
}

// columnDef parses a physical, computed or metadata column.
func (p *parser) columnDef(allowPK bool) *ColumnDef {
	col := &ColumnDef{Pos: p.peek().Pos}
	col.Name = p.ident("column name")
	if p.acceptWords("AS") {
		col.Kind = ComputedColumn
		col.Expr = p.exprText("computed column expression", "COMMENT", "FIRST", "AFTER")
		col.Comment = p.optComment()
		p.columnPosition(col)
		return col
	}
	col.Type = p.parseType()
	if p.acceptWords("METADATA") {
		col.Kind = MetadataColumn
		if p.acceptWords("FROM") {
			col.MetadataKey = p.stringLit("metadata key")
		}
		col.MetadataVirtual = p.acceptWords("VIRTUAL")
	}
	for {
		t := p.peek()
		switch {
		case t.is("NOT") && p.peekAt(1).is("NULL"):
			p.next()
			p.next()
			col.Type.NotNull = true
		case t.is("NULL"):
			p.next()
		case t.is("COMMENT"):
			if col.Comment != nil {
				p.fail("", "duplicate COMMENT")
			}
			col.Comment = p.optComment()
		case t.is("PRIMARY") && p.peekAt(1).is("KEY"):
			if !allowPK {
				p.fail("", "PRIMARY KEY is not allowed here")
			}
			p.next()
			p.next()
			col.PrimaryKey = true
			col.PrimaryKeyNotEnforced = p.acceptWords("NOT", "ENFORCED")
		case t.is("UNSIGNED") || t.is("SIGNED") || t.is("ZEROFILL") || t.is("AUTO_INCREMENT") || t.is("AUTOINCREMENT"):
			p.next()
			col.MySQL = append(col.MySQL, strings.ToUpper(t.Text))
		case t.is("UNIQUE"):
			p.next()
			p.acceptWords("KEY")
			col.MySQL = append(col.MySQL, p.textFrom(t))
		case t.is("KEY"):
			// MySQL: "id INT KEY" means PRIMARY KEY.
			p.next()
			col.MySQL = append(col.MySQL, "KEY")
		case t.is("DEFAULT"):
			p.next()
			p.defaultValue()
			col.MySQL = append(col.MySQL, p.textFrom(t))
		case t.is("ON") && p.peekAt(1).is("UPDATE"):
			p.next()
			p.next()
			p.defaultValue()
			col.MySQL = append(col.MySQL, p.textFrom(t))
		case t.is("CHARACTER") && p.peekAt(1).is("SET"), t.is("CHARSET"), t.is("COLLATE"):
			if !p.acceptWords("CHARACTER", "SET") {
				p.next()
			}
			p.ident("character set or collation")
			col.MySQL = append(col.MySQL, p.textFrom(t))
		case t.is("FIRST") || t.is("AFTER"):
			p.columnPosition(col)
			return col
		default:
			return col
		}
	}
}

// defaultValue consumes a MySQL DEFAULT / ON UPDATE value.
func (p *parser) defaultValue() {
	t := p.peek()
	switch {
	case t.is("-") || t.is("+"):
		p.next()
		p.defaultValue()
	case t.is("("):
		p.skipParenArgs()
	case t.Kind == TokWord:
		p.next()
		if p.peek().is("(") {
			p.skipParenArgs()
		}
	case t.Kind == TokString || t.Kind == TokDQString || t.Kind == TokNumber || t.Kind == TokHexString:
		p.next()
	default:
		p.fail("default value", "")
	}
}

func (p *parser) columnPosition(col *ColumnDef) {
	if p.acceptWords("FIRST") {
		col.Position = &ColumnPosition{First: true}
	} else if p.acceptWords("AFTER") {
		col.Position = &ColumnPosition{After: p.ident("column name")}
	}
}

func (p *parser) drop(meta Meta) Statement {
	p.expectWord("DROP")
	temporary := p.acceptWords("TEMPORARY")
	switch {
	case p.peek().is("TABLE"):
		p.next()
		d := &DropTable{Meta: meta, Temporary: temporary}
		d.IfExists = p.ifExists()
		for {
			d.Names = append(d.Names, p.tableName())
			if !p.acceptOp(",") {
				break
			}
		}
		if p.acceptWords("CASCADE") || p.acceptWords("RESTRICT") {
			// MySQL accepts and ignores these.
		}
		p.expectEnd()
		return d
	case !temporary && (p.peek().is("DATABASE") || p.peek().is("SCHEMA")):
		p.next()
		d := &DropDatabase{Meta: meta}
		d.IfExists = p.ifExists()
		d.Name = p.databaseName()
		if p.acceptWords("CASCADE") {
			d.Behavior = DropCascade
		} else if p.acceptWords("RESTRICT") {
			d.Behavior = DropRestrict
		}
		p.expectEnd()
		return d
	case p.peek().is("VIEW"):
		return unsupported(meta, "DROP VIEW", "views are not supported by Fluss")
	case p.peek().is("FUNCTION") || p.peek().is("SYSTEM"):
		return unsupported(meta, "DROP FUNCTION", "functions are not supported by the fluss driver")
	case p.peek().is("MATERIALIZED"):
		return unsupported(meta, "DROP MATERIALIZED TABLE", "materialized tables are managed by Flink; drop them from Flink SQL")
	case p.peek().is("CATALOG"):
		return unsupported(meta, "DROP CATALOG", "the fluss driver has a single built-in catalog; DROP CATALOG is not supported")
	case p.peek().is("INDEX"):
		return unsupported(meta, "DROP INDEX", "secondary indexes are not supported by Fluss")
	}
	p.fail("TABLE or DATABASE", "")
	return nil
}

func (p *parser) alter(meta Meta) Statement {
	p.expectWord("ALTER")
	switch {
	case p.peek().is("TABLE"):
		p.next()
	case p.peek().is("DATABASE") || p.peek().is("SCHEMA"):
		p.next()
		return p.alterDatabase(meta)
	case p.peek().is("MATERIALIZED"):
		return unsupported(meta, "ALTER MATERIALIZED TABLE", "materialized tables are managed by Flink; alter them from Flink SQL")
	case p.peek().is("VIEW"):
		return unsupported(meta, "ALTER VIEW", "views are not supported by Fluss")
	case p.peek().is("FUNCTION"):
		return unsupported(meta, "ALTER FUNCTION", "functions are not supported by the fluss driver")
	case p.peek().is("CATALOG"):
		return unsupported(meta, "ALTER CATALOG", "ALTER CATALOG is not supported by the fluss driver")
	default:
		p.fail("TABLE or DATABASE", "")
	}
	a := &AlterTable{Meta: meta}
	a.IfExists = p.ifExists()
	a.Name = p.tableName()
	for {
		a.Actions = append(a.Actions, p.alterAction())
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectEnd()
	return a
}

func (p *parser) alterDatabase(meta Meta) Statement {
	a := &AlterDatabase{Meta: meta}
	a.Name = p.databaseName()
	switch {
	case p.acceptWords("SET", "COMMENT"):
		p.acceptOp("=")
		s := p.stringLit("comment string")
		a.Comment = &s
	case p.acceptWords("SET", "DBPROPERTIES"), p.acceptWords("SET", "PROPERTIES"), p.acceptWords("SET"):
		a.Set = p.optionList()
	case p.acceptWords("RESET"):
		a.Reset = p.keyList()
	case p.acceptWords("COMMENT"):
		p.acceptOp("=")
		s := p.stringLit("comment string")
		a.Comment = &s
	default:
		p.fail("SET, RESET or SET COMMENT", "")
	}
	p.expectEnd()
	return a
}

func (p *parser) alterAction() AlterAction {
	t := p.peek()
	switch {
	case p.acceptWords("SET", "TBLPROPERTIES"):
		return &SetOptions{Options: p.optionList(), TblProperties: true}
	case p.acceptWords("UNSET", "TBLPROPERTIES"):
		r := &ResetOptions{TblProperties: true}
		r.IfExists = p.ifExists()
		r.Keys = p.keyList()
		return r
	case p.acceptWords("SET"):
		return &SetOptions{Options: p.optionList()}
	case p.acceptWords("RESET"):
		return &ResetOptions{Keys: p.keyList()}
	case p.acceptWords("RENAME"):
		if p.acceptWords("TO") || p.acceptWords("AS") {
			return &RenameTable{To: p.tableName()}
		}
		p.acceptWords("COLUMN")
		r := &RenameColumn{From: p.ident("column name")}
		p.expectWord("TO")
		r.To = p.ident("new column name")
		return r
	case t.is("ADD") || t.is("MODIFY"):
		p.next()
		if t.is("ADD") && (p.peek().is("PARTITION") || p.peek().is("IF") && p.peekAt(3).is("PARTITION")) {
			a := &AddPartitions{IfNotExists: p.ifNotExists()}
			for p.peek().is("PARTITION") {
				a.Partitions = append(a.Partitions, p.partitionSpec(true))
				p.acceptOp(",")
			}
			if len(a.Partitions) == 0 {
				p.fail("PARTITION", "")
			}
			return a
		}
		op := SchemaAdd
		if t.is("MODIFY") {
			op = SchemaModify
		}
		return p.alterSchema(op)
	case p.acceptWords("DROP"):
		switch {
		case p.peek().is("PARTITION") || p.peek().is("IF") && p.peekAt(2).is("PARTITION"):
			d := &DropPartitions{IfExists: p.ifExists()}
			for p.peek().is("PARTITION") {
				d.Partitions = append(d.Partitions, p.partitionSpec(false))
				if !p.acceptOp(",") {
					break
				}
			}
			if len(d.Partitions) == 0 {
				p.fail("PARTITION", "")
			}
			return d
		case p.acceptWords("PRIMARY", "KEY"):
			return &DropPrimaryKey{}
		case p.peek().is("WATERMARK") && (p.peekAt(1).Kind == TokEOF || p.peekAt(1).is(",")):
			p.next()
			return &DropWatermark{}
		case p.acceptWords("CONSTRAINT"):
			return &DropConstraint{Name: p.ident("constraint name")}
		}
		p.acceptWords("COLUMN")
		if p.peek().is("(") {
			return &DropColumns{Columns: p.identList("column name")}
		}
		return &DropColumns{Columns: []string{p.ident("column name")}}
	case t.is("ALTER") || t.is("CHANGE"):
		p.fail("SET, RESET, ADD, MODIFY, DROP or RENAME", "use MODIFY to change a column")
	}
	p.fail("SET, RESET, ADD, MODIFY, DROP or RENAME", "")
	return nil
}

func (p *parser) alterSchema(op AlterSchemaOp) AlterAction {
	a := &AlterSchema{Op: op}
	one := func() {
		t := p.peek()
		switch {
		case t.is("WATERMARK") && p.peekAt(1).is("FOR"):
			if a.Watermark != nil {
				p.fail("", "only one WATERMARK is allowed")
			}
			a.Watermark = p.watermark()
		case t.is("CONSTRAINT") && p.peekAt(2).is("PRIMARY"):
			p.next()
			name := p.ident("constraint name")
			a.PrimaryKey = p.primaryKey(t.Pos)
			a.PrimaryKey.ConstraintName = name
		case t.is("PRIMARY") && p.peekAt(1).is("KEY"):
			a.PrimaryKey = p.primaryKey(t.Pos)
		default:
			a.Columns = append(a.Columns, p.columnDef(true))
		}
	}
	if p.acceptWords("COLUMN") {
		a.ColumnKeyword = true
		a.Columns = append(a.Columns, p.columnDef(true))
		return a
	}
	if p.peek().is("(") {
		p.next()
		a.Parenthesized = true
		for {
			one()
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
		return a
	}
	one()
	return a
}

// partitionSpec parses PARTITION (k = v, ...) [WITH (...)].
func (p *parser) partitionSpec(allowWith bool) PartitionSpec {
	pos := p.peek().Pos
	p.expectWord("PARTITION")
	spec := PartitionSpec{Pos: pos}
	p.expectOp("(")
	for {
		col := p.ident("partition column")
		p.expectOp("=")
		spec.Values = append(spec.Values, PartitionValue{Column: col, Value: p.literalOrParam("partition value (a literal)")})
		if p.acceptOp(",") {
			continue
		}
		p.expectOp(")")
		break
	}
	if allowWith && p.peek().is("WITH") && p.peekAt(1).is("(") {
		p.next()
		spec.Options = p.optionList()
	}
	return spec
}

// literalOrParam parses a literal (string, number, boolean, NULL, typed
// literal) or a placeholder.
func (p *parser) literalOrParam(what string) Expr {
	t := p.peek()
	switch t.Kind {
	case TokString, TokDQString, TokNumber, TokHexString, TokParam:
		return p.primary()
	case TokOp:
		if (t.Text == "-" || t.Text == "+") && p.peekAt(1).Kind == TokNumber {
			return p.primary()
		}
	case TokWord:
		switch strings.ToUpper(t.Text) {
		case "TRUE", "FALSE", "NULL":
			return p.primary()
		case "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ":
			if p.peekAt(1).Kind == TokString {
				return p.primary()
			}
		}
	}
	p.fail(what, "")
	return nil
}
