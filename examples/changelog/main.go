// Command changelog writes to a primary-key table (inserts, an update and
// a delete) and then reads the table's change stream through the virtual
// table t$changelog, the way a CDC consumer tails Fluss: every change with
// its kind, log offset and commit time.
package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"time"

	_ "github.com/gofluss/fluss"
	"github.com/gofluss/fluss/examples"
)

func main() { examples.Main("changelog_example", 2*time.Minute, run) }

func run(ctx context.Context, dsn, db string, out io.Writer) error {
	sdb, err := sql.Open("fluss", dsn)
	if err != nil {
		return err
	}
	defer sdb.Close()
	// One bucket, so that the log order is the order of the writes.
	for _, stmt := range []string{
		"DROP DATABASE IF EXISTS " + db + " CASCADE",
		"CREATE DATABASE " + db,
		"CREATE TABLE " + db + ".accounts (id INT, owner STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')",
		"INSERT INTO " + db + ".accounts VALUES (1, 'ada'), (2, 'bob')",
		"UPDATE " + db + ".accounts SET owner = 'ada lovelace' WHERE id = 1",
		"DELETE FROM " + db + ".accounts WHERE id = 2",
	} {
		if _, err := sdb.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
	}
	// A bounded read of the changelog from the start up to the offsets at
	// query start. Quote the name: '$' is not an identifier character in
	// every SQL tool.
	rows, err := sdb.QueryContext(ctx, "SELECT _change_type, _log_offset, _commit_timestamp, id, owner FROM "+db+".`accounts$changelog`")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var kind string
		var offset int64
		var at time.Time
		var id int32
		var owner sql.NullString
		if err := rows.Scan(&kind, &offset, &at, &id, &owner); err != nil {
			return err
		}
		fmt.Fprintf(out, "%-13s offset=%d id=%d owner=%s\n", kind, offset, id, owner.String)
	}
	return rows.Err()
}
