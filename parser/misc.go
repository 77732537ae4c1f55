package parser

import "strings"

func (p *parser) likePattern() *LikePattern {
	lp := &LikePattern{}
	save := p.i
	lp.Not = p.acceptWords("NOT")
	switch {
	case p.acceptWords("LIKE"):
	case p.acceptWords("ILIKE"):
		lp.CaseInsensitive = true
	default:
		p.i = save
		return nil
	}
	lp.Pattern = p.stringLit("LIKE pattern (a string literal)")
	return lp
}

func (p *parser) fromTable() *TableName {
	if !p.acceptWords("FROM") && !p.acceptWords("IN") {
		p.fail("FROM", "")
	}
	n := p.tableName()
	return &n
}

func (p *parser) optPartition() *PartitionSpec {
	if p.peek().is("PARTITION") {
		s := p.partitionSpec(false)
		return &s
	}
	return nil
}

func (p *parser) show(meta Meta) Statement {
	p.expectWord("SHOW")
	s := &Show{Meta: meta}
	table := func() {
		n := p.tableName()
		s.Table = &n
	}
	fromDatabase := func() {
		if p.acceptWords("FROM") || p.acceptWords("IN") {
			d := p.databaseName()
			s.Database = &d
		}
	}
	switch {
	case p.acceptWords("DATABASES"), p.acceptWords("SCHEMAS"):
		s.Kind = ShowDatabases
		s.Like = p.likePattern()
	case p.acceptWords("FULL", "TABLES"), p.acceptWords("TABLES"):
		s.Kind = ShowTables
		s.Full = strings.EqualFold(p.toks[1].Text, "FULL")
		fromDatabase()
		s.Like = p.likePattern()
	case p.acceptWords("PARTITIONS"):
		s.Kind = ShowPartitions
		p.acceptWords("FROM")
		table()
		s.Partition = p.optPartition()
	case p.acceptWords("CREATE", "TABLE"):
		s.Kind = ShowCreateTable
		table()
	case p.acceptWords("FULL", "COLUMNS"), p.acceptWords("COLUMNS"), p.acceptWords("FULL", "FIELDS"), p.acceptWords("FIELDS"):
		s.Kind = ShowColumns
		s.Full = strings.EqualFold(p.toks[1].Text, "FULL")
		s.Table = p.fromTable()
		if p.acceptWords("FROM") || p.acceptWords("IN") {
			// MySQL: SHOW COLUMNS FROM t FROM db
			s.Table.Catalog, s.Table.Database = s.Table.Database, p.ident("database name")
		}
		s.Like = p.likePattern()
	case p.acceptWords("TABLE", "OPTIONS"), p.acceptWords("TBLPROPERTIES"), p.acceptWords("TABLE", "PROPERTIES"):
		s.Kind = ShowTableOptions
		p.acceptWords("FROM")
		table()
	case p.acceptWords("BUCKETS"):
		s.Kind = ShowBuckets
		p.acceptWords("FROM")
		table()
		s.Partition = p.optPartition()
	case p.acceptWords("OFFSETS"):
		s.Kind = ShowOffsets
		s.Table = p.fromTable()
		s.Partition = p.optPartition()
		s.Offsets = &OffsetSpec{Kind: OffsetsLatest}
		if p.acceptWords("AT") {
			s.Offsets.Explicit = true
			switch {
			case p.acceptWords("EARLIEST"):
				s.Offsets.Kind = OffsetsEarliest
			case p.acceptWords("LATEST"):
			case p.acceptWords("TIMESTAMP"):
				s.Offsets.Kind = OffsetsTimestamp
				t := p.peek()
				if t.Kind != TokString && t.Kind != TokNumber && t.Kind != TokParam && t.Kind != TokDQString {
					p.fail("a timestamp string, epoch milliseconds or a placeholder", "")
				}
				s.Offsets.Timestamp = p.primary()
			default:
				p.fail("EARLIEST, LATEST or TIMESTAMP", "")
			}
		}
	case p.acceptWords("TABLE", "STATS"), p.acceptWords("TABLE", "STATISTICS"):
		s.Kind = ShowTableStats
		p.acceptWords("FROM")
		table()
		s.Partition = p.optPartition()
	case p.acceptWords("KV", "SNAPSHOTS"):
		s.Kind = ShowKvSnapshots
		s.Table = p.fromTable()
		s.Partition = p.optPartition()
	case p.acceptWords("LAKE", "SNAPSHOT"), p.acceptWords("LAKE", "SNAPSHOTS"):
		s.Kind = ShowLakeSnapshot
		s.Table = p.fromTable()
	case p.acceptWords("SERVERS"):
		s.Kind = ShowServers
	case p.acceptWords("PROCEDURES"):
		s.Kind = ShowProcedures
		fromDatabase()
		s.Like = p.likePattern()
	case p.acceptWords("CATALOGS"):
		s.Kind = ShowCatalogs
		s.Like = p.likePattern()
	case p.acceptWords("CURRENT", "DATABASE"), p.acceptWords("CURRENT", "SCHEMA"):
		s.Kind = ShowCurrentDatabase
	case p.acceptWords("CURRENT", "CATALOG"):
		s.Kind = ShowCurrentCatalog
	case p.acceptWords("VARIABLES"), p.acceptWords("SESSION", "VARIABLES"), p.acceptWords("GLOBAL", "VARIABLES"):
		s.Kind = ShowVariables
		s.Like = p.likePattern()
	default:
		if p.peek().Kind != TokWord {
			p.fail("DATABASES, TABLES, PARTITIONS, CREATE TABLE, COLUMNS, ...", "")
		}
		s.Kind = ShowOther
		for !p.atEnd() {
			s.Words = append(s.Words, strings.ToUpper(p.next().Text))
		}
		return s
	}
	p.expectEnd()
	return s
}

func (p *parser) describe(meta Meta) Statement {
	p.next() // DESCRIBE | DESC
	if w := p.peek(); w.is("SELECT") || w.is("INSERT") || w.is("UPDATE") || w.is("DELETE") || w.is("REPLACE") || w.is("UPSERT") {
		return &Explain{Meta: meta, Statement: p.nested(meta)}
	}
	d := &Describe{Meta: meta}
	d.Extended = p.acceptWords("EXTENDED") || p.acceptWords("FORMATTED")
	if p.acceptWords("DATABASE") || p.acceptWords("SCHEMA") {
		if !d.Extended {
			d.Extended = p.acceptWords("EXTENDED")
		}
		n := p.databaseName()
		d.Database = &n
	} else {
		p.acceptWords("TABLE")
		n := p.tableName()
		d.Table = &n
	}
	p.expectEnd()
	return d
}

var statementWords = map[string]bool{
	"SELECT": true, "INSERT": true, "REPLACE": true, "UPDATE": true, "DELETE": true, "UPSERT": true, "CREATE": true, "DROP": true,
	"ALTER": true, "SHOW": true, "DESCRIBE": true, "DESC": true, "USE": true, "SET": true, "RESET": true, "CALL": true, "WITH": true,
	"EXECUTE": true, "FLUSH": true, "TRUNCATE": true, "VALUES": true, "EXPLAIN": true,
}

func (p *parser) explain(meta Meta) Statement {
	p.expectWord("EXPLAIN")
	e := &Explain{Meta: meta}
	if p.isNameToEnd() {
		// MySQL: EXPLAIN t is DESCRIBE t.
		n := p.tableName()
		return &Describe{Meta: meta, Table: &n}
	}
	p.acceptWords("PLAN", "FOR")
	for p.peek().Kind == TokWord && !statementWords[strings.ToUpper(p.peek().Text)] {
		d := strings.ToUpper(p.next().Text)
		if p.acceptOp("=") {
			d += "=" + strings.ToUpper(p.next().Text)
		}
		e.Details = append(e.Details, d)
		p.acceptOp(",")
	}
	e.Statement = p.nested(meta)
	return e
}

// isNameToEnd reports whether the remaining tokens are exactly a dotted name.
func (p *parser) isNameToEnd() bool {
	k := 0
	for {
		t := p.peekAt(k)
		if t.Kind != TokWord && t.Kind != TokQuotedIdent || t.Kind == TokWord && statementWords[strings.ToUpper(t.Text)] {
			return false
		}
		k++
		if p.peekAt(k).Kind == TokEOF {
			return true
		}
		if !p.peekAt(k).is(".") {
			return false
		}
		k++
	}
}

func (p *parser) use(meta Meta) Statement {
	p.expectWord("USE")
	if p.peek().is("CATALOG") && p.peekAt(1).Kind != TokEOF {
		p.next()
		u := &UseCatalog{Meta: meta, Name: p.ident("catalog name")}
		p.expectEnd()
		return u
	}
	if p.peek().is("MODULES") {
		return unsupported(meta, "USE MODULES", "Flink modules are not supported by the fluss driver")
	}
	u := &Use{Meta: meta, Database: p.databaseName()}
	p.expectEnd()
	return u
}

// mysqlVariables are MySQL session variables that BI tools and MySQL
// clients set; SET of these is treated as MySQL noise.
var mysqlVariables = map[string]bool{
	"autocommit": true, "sql_mode": true, "time_zone": true, "sql_select_limit": true, "net_write_timeout": true,
	"net_read_timeout": true, "sql_safe_updates": true, "transaction_isolation": true, "tx_isolation": true,
	"transaction_read_only": true, "tx_read_only": true, "character_set_results": true, "character_set_client": true,
	"character_set_connection": true, "collation_connection": true, "wait_timeout": true, "interactive_timeout": true,
	"max_execution_time": true, "sql_auto_is_null": true, "foreign_key_checks": true, "unique_checks": true,
	"sql_notes": true, "session_track_schema": true, "group_concat_max_len": true, "lc_messages": true,
}

func (p *parser) set(meta Meta) Statement {
	p.expectWord("SET")
	if p.atEnd() {
		return &Set{Meta: meta}
	}
	t := p.peek()
	w := strings.ToUpper(t.Text)
	if t.Kind == TokWord {
		noise := strings.HasPrefix(t.Text, "@") || mysqlVariables[strings.ToLower(t.Text)]
		switch w {
		case "NAMES", "CHARACTER", "CHARSET", "SESSION", "GLOBAL", "LOCAL", "PERSIST", "PERSIST_ONLY", "TRANSACTION", "PASSWORD", "ROLE", "DEFAULT":
			noise = true
		}
		if noise {
			m := &MySQLSet{Meta: meta, Variable: t.Text}
			start := p.next()
			if w != "NAMES" && w != "CHARSET" {
				for !p.atEnd() && !p.peek().is("=") {
					p.next()
				}
				m.Variable = p.textFrom(start)
				if !p.acceptOp("=") {
					m.Value = ""
					p.i = len(p.toks) - 1
					return m
				}
			}
			m.Value = p.restText()
			p.i = len(p.toks) - 1
			return m
		}
	}
	s := &Set{Meta: meta}
	if t.Kind == TokString || t.Kind == TokDQString {
		p.next()
		s.Key, s.KeyQuoted = t.Value, true
	} else {
		// Flink SQL client: SET key = value with a bare (dotted, dashed) key.
		start := p.peek()
		for !p.atEnd() && !p.peek().is("=") {
			p.next()
		}
		s.Key = strings.TrimSpace(p.textFrom(start))
	}
	p.expectOp("=")
	if p.atEnd() {
		p.fail("a value", "")
	}
	if v := p.peek(); (v.Kind == TokString || v.Kind == TokDQString) && p.peekAt(1).Kind == TokEOF {
		p.next()
		s.Value, s.ValueQuoted = v.Value, true
		return s
	}
	s.Value = p.restText()
	p.i = len(p.toks) - 1
	return s
}

// restText returns the source text of the remaining tokens.
func (p *parser) restText() string {
	start := p.peek()
	if start.Kind == TokEOF {
		return ""
	}
	last := p.toks[len(p.toks)-2]
	return strings.TrimSpace(p.src[start.Pos.Offset:last.End])
}

func (p *parser) reset(meta Meta) Statement {
	p.expectWord("RESET")
	r := &Reset{Meta: meta}
	if p.atEnd() {
		return r
	}
	if t := p.peek(); t.Kind == TokString || t.Kind == TokDQString {
		p.next()
		r.Key = t.Value
		p.expectEnd()
		return r
	}
	r.Key = p.restText()
	p.i = len(p.toks) - 1
	return r
}

func (p *parser) call(meta Meta) Statement {
	p.expectWord("CALL")
	c := &Call{Meta: meta}
	c.Procedure = p.nameParts("procedure name")
	if len(c.Procedure) > 3 {
		p.fail("", "a procedure name has at most three parts: catalog.database.procedure")
	}
	p.expectOp("(")
	for !p.peek().is(")") {
		if len(c.Args) > 0 {
			p.expectOp(",")
		}
		var a CallArg
		if p.isIdent() && p.peekAt(1).is("=>") {
			a.Name = p.ident("argument name")
			p.next()
		}
		a.Value = p.primary()
		c.Args = append(c.Args, a)
	}
	p.next()
	p.expectEnd()
	return c
}

func (p *parser) flush(meta Meta) Statement {
	p.expectWord("FLUSH")
	f := &Flush{Meta: meta}
	if p.acceptWords("TABLE") || p.acceptWords("TABLES") {
		if !p.atEnd() {
			n := p.tableName()
			f.Table = &n
		}
	}
	p.expectEnd()
	return f
}

func (p *parser) transaction(meta Meta) Statement {
	t := p.next()
	tx := &Transaction{Meta: meta}
	switch strings.ToUpper(t.Text) {
	case "BEGIN":
		if p.peek().is("STATEMENT") {
			return unsupported(meta, "BEGIN STATEMENT SET", "statement sets are not supported; run the statements one by one")
		}
		tx.Kind = TxBegin
		p.acceptWords("WORK")
		p.acceptWords("TRANSACTION")
	case "START":
		p.expectWord("TRANSACTION")
		tx.Kind = TxBegin
		for !p.atEnd() {
			start := p.peek()
			for !p.atEnd() && !p.peek().is(",") {
				p.next()
			}
			tx.Characteristics = append(tx.Characteristics, strings.ToUpper(p.textFrom(start)))
			p.acceptOp(",")
		}
	case "COMMIT":
		tx.Kind = TxCommit
		p.acceptWords("WORK")
	case "ROLLBACK":
		tx.Kind = TxRollback
		p.acceptWords("WORK")
	}
	p.expectEnd()
	return tx
}
