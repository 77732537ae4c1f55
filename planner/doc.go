// Package planner turns parsed statements of the fluss SQL dialect into
// plans: pure data values that say exactly which native Fluss calls the
// driver makes (admin calls, appends, upserts, deletes, lookups, prefix
// lookups, limit scans, bounded log and changelog scans).
//
// Fluss runs no SQL on its servers, so every statement is checked here
// against the table's metadata, which the planner reads through the small
// Catalog interface (package engine backs it with the client's shared table
// handles; tests use an in-memory fake). A statement that cannot be served by native
// calls is rejected with an *Error whose message starts with "fluss:",
// names the offending clause and says what would work instead.
//
// Plans hold no closures and do no I/O, and the package imports no network
// code: table metadata comes as flussrpc/schema values. Values inside a plan are
// literals already converted to the target column's type (CAST of a constant
// included), references to statement parameters (with the type the argument
// must be converted to), or session values such as DATABASE() and the clock
// (NOW(), CURRENT_DATE, ...), which the executor reads when it runs the plan;
// the executor binds the arguments and runs the plan. Every query plan
// lists its output columns with their Fluss types.
//
// Build is the entry point:
//
//	st, _ := parser.Parse("SELECT * FROM orders WHERE order_id = ?")
//	pl, err := planner.Build(ctx, st, catalog, &planner.Session{Database: "shop"})
//	// pl is a *planner.Lookup; pl.(planner.QueryPlan).OutputColumns()
//	// gives the result columns, and EXPLAIN prints pl.String().
//
// Type text is read here too: ParseType and FromParser turn a parsed type
// ("DECIMAL(10, 2)", or a foreign spelling such as VARCHAR(255)) into a
// Fluss type, refusing or mapping what Fluss lacks; typeconv.TypeName
// renders a type back as text.
//
// A plan depends on the session's current database and options and on
// the table's schema id (Table.SchemaID): a cached plan must be rebuilt
// after USE, SET/RESET or a schema change.
//
// The SELECT planner follows the dialect's P1–P9 order: point lookup by
// the full primary key, prefix lookup by the bucket key, COUNT(*), LIMIT
// scan, bounded log scan, primary-key table scan, $changelog/$binlog scan,
// and client-side filtering only when 'fluss.client-filter' is enabled.
// ORDER BY wraps the read in a Sort, which orders the rows in the client
// within the 'fluss.scan.max-rows' bound and applies LIMIT and OFFSET.
package planner
