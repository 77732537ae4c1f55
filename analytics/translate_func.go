package analytics

import (
	"fmt"
	"maps"
	"strings"

	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/parser"
)

// funcKind tells where a function may stand.
type funcKind int

const (
	scalarFunc funcKind = iota
	aggregateFunc
	windowFunc // only with OVER
)

// fn is how one Flink function is written for DuckDB. write writes the
// call, and its window when it has one (windowed).
type fn struct {
	kind funcKind
	// min and max bound the number of arguments; max -1 is no bound.
	min, max int
	write    func(w *writer, f *parser.FuncCall)
}

// funcs maps the Flink functions the engine runs (upper case) to their
// DuckDB form: the same function where DuckDB's computes what Flink's
// does, else an expression that does. A function missing here is
// refused by name. Grafana's date_bin and datepart are there too, as its
// Flight SQL macros write them.
var funcs map[string]fn

// funcGroups are funcs by category, which Functions lists for the
// metadata clients read (JDBC's getNumericFunctions, ...).
var funcGroups []funcGroup

// funcGroup is the functions of one category: aggregate, window,
// numeric, string, system (conditions) or datetime.
type funcGroup struct {
	category string
	funcs    map[string]fn
}

func init() {
	funcGroups = []funcGroup{
		{"aggregate", map[string]fn{
			// Aggregates. AVG is SUM / COUNT so that the average of integers
			// is an integer, as in Flink (the engine divides integers as
			// integers).
			"COUNT":       {aggregateFunc, 0, -1, same("count")},
			"SUM":         {aggregateFunc, 1, 1, same("sum")},
			"MIN":         {aggregateFunc, 1, 1, same("min")},
			"MAX":         {aggregateFunc, 1, 1, same("max")},
			"AVG":         {aggregateFunc, 1, 1, avg},
			"STDDEV":      {aggregateFunc, 1, 1, same("stddev_samp")},
			"STDDEV_SAMP": {aggregateFunc, 1, 1, same("stddev_samp")},
			"STDDEV_POP":  {aggregateFunc, 1, 1, same("stddev_pop")},
			"VARIANCE":    {aggregateFunc, 1, 1, same("var_samp")},
			"VAR_SAMP":    {aggregateFunc, 1, 1, same("var_samp")},
			"VAR_POP":     {aggregateFunc, 1, 1, same("var_pop")},
			"LISTAGG":     {aggregateFunc, 1, 2, listagg},
			// Flink's FIRST_VALUE and LAST_VALUE skip NULL values.
			"FIRST_VALUE": {aggregateFunc, 1, 1, firstLast("first_value", "any_value")},
			"LAST_VALUE":  {aggregateFunc, 1, 1, firstLast("last_value", "")},
		}},
		{"window", map[string]fn{
			// Window functions.
			"ROW_NUMBER":   {windowFunc, 0, 0, same("row_number")},
			"RANK":         {windowFunc, 0, 0, same("rank")},
			"DENSE_RANK":   {windowFunc, 0, 0, same("dense_rank")},
			"PERCENT_RANK": {windowFunc, 0, 0, same("percent_rank")},
			"CUME_DIST":    {windowFunc, 0, 0, same("cume_dist")},
			"NTILE":        {windowFunc, 1, 1, same("ntile")},
			"LAG":          {windowFunc, 1, 3, same("lag")},
			"LEAD":         {windowFunc, 1, 3, same("lead")},
		}},
		{"numeric", map[string]fn{
			// Numbers.
			"ABS":     {scalarFunc, 1, 1, same("abs")},
			"MOD":     {scalarFunc, 2, 2, same("mod")},
			"ROUND":   {scalarFunc, 1, 2, same("round")},
			"FLOOR":   {scalarFunc, 1, 1, same("floor")},
			"CEIL":    {scalarFunc, 1, 1, same("ceil")},
			"CEILING": {scalarFunc, 1, 1, same("ceil")},
			"POWER":   {scalarFunc, 2, 2, same("power")},
			"SQRT":    {scalarFunc, 1, 1, same("sqrt")},
			"EXP":     {scalarFunc, 1, 1, same("exp")},
			"LN":      {scalarFunc, 1, 1, same("ln")},
			"LOG10":   {scalarFunc, 1, 1, same("log10")},
			"LOG2":    {scalarFunc, 1, 1, same("log2")},
			"LOG":     {scalarFunc, 1, 2, logFunc},
			"SIGN":    {scalarFunc, 1, 1, same("sign")},
			"PI":      {scalarFunc, 0, 0, same("pi")},
			"SIN":     {scalarFunc, 1, 1, same("sin")},
			"COS":     {scalarFunc, 1, 1, same("cos")},
			"TAN":     {scalarFunc, 1, 1, same("tan")},
			"COT":     {scalarFunc, 1, 1, same("cot")},
			"ASIN":    {scalarFunc, 1, 1, same("asin")},
			"ACOS":    {scalarFunc, 1, 1, same("acos")},
			"ATAN":    {scalarFunc, 1, 1, same("atan")},
			"ATAN2":   {scalarFunc, 2, 2, same("atan2")},
			"DEGREES": {scalarFunc, 1, 1, same("degrees")},
			"RADIANS": {scalarFunc, 1, 1, same("radians")},
			"RAND":    {scalarFunc, 0, 0, same("random")},
		}},
		{"string", map[string]fn{
			// Strings.
			"CONCAT":           {scalarFunc, 1, -1, concat},
			"CONCAT_WS":        {scalarFunc, 2, -1, same("concat_ws")},
			"UPPER":            {scalarFunc, 1, 1, same("upper")},
			"LOWER":            {scalarFunc, 1, 1, same("lower")},
			"TRIM":             {scalarFunc, 1, 1, same("trim")},
			"LTRIM":            {scalarFunc, 1, 1, same("ltrim")},
			"RTRIM":            {scalarFunc, 1, 1, same("rtrim")},
			"LPAD":             {scalarFunc, 3, 3, same("lpad")},
			"RPAD":             {scalarFunc, 3, 3, same("rpad")},
			"REPEAT":           {scalarFunc, 2, 2, same("repeat")},
			"REVERSE":          {scalarFunc, 1, 1, same("reverse")},
			"REPLACE":          {scalarFunc, 3, 3, same("replace")},
			"LEFT":             {scalarFunc, 2, 2, same("left")},
			"RIGHT":            {scalarFunc, 2, 2, same("right")},
			"SUBSTRING":        {scalarFunc, 2, 3, same("substring")},
			"SUBSTR":           {scalarFunc, 2, 3, same("substring")},
			"CHAR_LENGTH":      {scalarFunc, 1, 1, same("length")},
			"CHARACTER_LENGTH": {scalarFunc, 1, 1, same("length")},
			"LENGTH":           {scalarFunc, 1, 1, same("length")},
			"POSITION":         {scalarFunc, 2, 2, position},
			"LOCATE":           {scalarFunc, 2, 3, locate},
			"ASCII":            {scalarFunc, 1, 1, same("ascii")},
			"CHR":              {scalarFunc, 1, 1, same("chr")},
			"MD5":              {scalarFunc, 1, 1, same("md5")},
			"SHA256":           {scalarFunc, 1, 1, same("sha256")},
			"REGEXP":           {scalarFunc, 2, 2, same("regexp_matches")},
			"REGEXP_REPLACE":   {scalarFunc, 3, 3, regexpReplace},
			"REGEXP_EXTRACT":   {scalarFunc, 2, 3, regexpExtract},
			"UUID":             {scalarFunc, 0, 0, uuid},
		}},
		{"system", map[string]fn{
			// Conditions.
			"IF":       {scalarFunc, 3, 3, ifFunc},
			"COALESCE": {scalarFunc, 1, -1, same("coalesce")},
			"IFNULL":   {scalarFunc, 2, 2, same("coalesce")},
			"NVL":      {scalarFunc, 2, 2, same("coalesce")},
			"NULLIF":   {scalarFunc, 2, 2, same("nullif")},
			"GREATEST": {scalarFunc, 1, -1, nullIfAnyNull("greatest")},
			"LEAST":    {scalarFunc, 1, -1, nullIfAnyNull("least")},
		}},
		{"datetime", map[string]fn{
			// Time.
			"NOW":               {scalarFunc, 0, 0, keyword("current_timestamp")},
			"CURRENT_TIMESTAMP": {scalarFunc, 0, 0, keyword("current_timestamp")},
			"LOCALTIMESTAMP":    {scalarFunc, 0, 0, keyword("localtimestamp")},
			"CURRENT_DATE":      {scalarFunc, 0, 0, keyword("current_date")},
			"CURRENT_TIME":      {scalarFunc, 0, 0, keyword("localtime")},
			"LOCALTIME":         {scalarFunc, 0, 0, keyword("localtime")},
			"DATE_FORMAT":       {scalarFunc, 2, 2, dateFormat},
			"TO_TIMESTAMP":      {scalarFunc, 1, 2, parseTime(false)},
			"TO_DATE":           {scalarFunc, 1, 2, parseTime(true)},
			"TO_TIMESTAMP_LTZ":  {scalarFunc, 1, 2, toTimestampLTZ},
			"UNIX_TIMESTAMP":    {scalarFunc, 0, 2, unixTimestamp},
			"FROM_UNIXTIME":     {scalarFunc, 1, 2, fromUnixtime},
			"YEAR":              {scalarFunc, 1, 1, same("year")},
			"QUARTER":           {scalarFunc, 1, 1, same("quarter")},
			"MONTH":             {scalarFunc, 1, 1, same("month")},
			"WEEK":              {scalarFunc, 1, 1, same("week")},
			"DAYOFYEAR":         {scalarFunc, 1, 1, same("dayofyear")},
			"DAYOFMONTH":        {scalarFunc, 1, 1, same("dayofmonth")},
			"DAYOFWEEK":         {scalarFunc, 1, 1, dayOfWeek},
			"HOUR":              {scalarFunc, 1, 1, same("hour")},
			"MINUTE":            {scalarFunc, 1, 1, same("minute")},
			"SECOND":            {scalarFunc, 1, 1, same("second")},
			"DATE_BIN":          {scalarFunc, 2, 3, dateBin},
			"DATEPART":          {scalarFunc, 2, 2, same("date_part")},
			"DATE_PART":         {scalarFunc, 2, 2, same("date_part")},
			"DATE_TRUNC":        {scalarFunc, 2, 2, same("date_trunc")},
		}},
	}
	funcs = map[string]fn{}
	for _, g := range funcGroups {
		maps.Copy(funcs, g.funcs)
	}
}

// call writes a function call.
func (w *writer) call(f *parser.FuncCall) {
	name := strings.ToUpper(f.Name)
	if f.Qualifier != "" {
		w.fail("the function %s.%s is not known", f.Qualifier, f.Name)
		return
	}
	d, ok := funcs[name]
	switch n := len(f.Args); {
	case !ok:
		w.fail("the function %s is not supported: DuckDB has no function that computes it as Flink does", name)
	case n < d.min || d.max >= 0 && n > d.max:
		w.fail("%s takes %s, not %d", name, arity(d.min, d.max), n)
	case f.Star && (name != "COUNT" || n > 0):
		w.fail("%s(*) is not a function call; only COUNT(*) is", name)
	case name == "COUNT" && !f.Star && n == 0:
		w.fail("COUNT needs an argument or *")
	case f.Distinct && d.kind != aggregateFunc:
		w.fail("%s(DISTINCT ...): %s is not an aggregate function", name, name)
	case f.Over != nil && d.kind == scalarFunc:
		w.fail("%s(...) OVER (...): %s is not an aggregate or window function", name, name)
	case f.Over == nil && d.kind == windowFunc:
		w.fail("%s(...) needs OVER (...)", name)
	default:
		d.write(w, f)
	}
}

func arity(min, max int) string {
	switch {
	case max < 0:
		return "at least " + plural.Count(min, "argument")
	case min == max:
		return plural.Count(min, "argument")
	}
	return fmt.Sprintf("%d to %d arguments", min, max)
}

// fcall writes name(args) as a call of f: with f's DISTINCT or *, what
// inside follows the arguments (" IGNORE NULLS"), and f's window.
func (w *writer) fcall(name string, f *parser.FuncCall, args []parser.Expr, inside string) {
	w.str(name, "(")
	if f.Distinct {
		w.str("DISTINCT ")
	}
	if f.Star {
		w.str("*")
	}
	w.exprList(args)
	w.str(inside, ")")
	if f.Over != nil {
		w.window(f.Over)
	}
}

// same is a function DuckDB has under name, with Flink's meaning.
func same(name string) func(*writer, *parser.FuncCall) {
	return func(w *writer, f *parser.FuncCall) { w.fcall(name, f, f.Args, "") }
}

// keyword is a niladic function DuckDB spells without parentheses.
func keyword(name string) func(*writer, *parser.FuncCall) {
	return func(w *writer, _ *parser.FuncCall) { w.str(name) }
}

// window writes OVER (...), ORDER BY with Flink's NULL order.
func (w *writer) window(s *parser.WindowSpec) {
	w.str(" OVER (")
	sep := ""
	if len(s.PartitionBy) > 0 {
		w.str("PARTITION BY ")
		w.exprList(s.PartitionBy)
		sep = " "
	}
	if len(s.OrderBy) > 0 {
		w.str(sep, "ORDER BY ")
		w.orderItems(s.OrderBy)
		sep = " "
	}
	if f := s.Frame; f != nil {
		w.str(sep)
		if f.Range {
			w.str("RANGE BETWEEN ")
		} else {
			w.str("ROWS BETWEEN ")
		}
		w.bound(f.Start)
		w.str(" AND ")
		w.bound(f.End)
	}
	w.str(")")
}

func (w *writer) bound(b parser.FrameBound) {
	if b.Offset != nil {
		w.operand(b.Offset, precPrimary)
		w.str(" ")
	}
	w.str(b.Kind.String())
}

func avg(w *writer, f *parser.FuncCall) {
	w.str("(")
	w.fcall("sum", f, f.Args, "")
	w.str(" / ")
	w.fcall("count", f, f.Args, "")
	w.str(")")
}

// listagg is LISTAGG(x [, separator]), whose separator is ',' by default.
func listagg(w *writer, f *parser.FuncCall) {
	args := f.Args
	if len(args) == 1 {
		args = append(args[:1:1], &parser.Literal{Kind: parser.LitString, Text: ","})
	}
	w.fcall("string_agg", f, args, "")
}

// firstLast writes FIRST_VALUE and LAST_VALUE, which skip NULL values:
// the window function with IGNORE NULLS, or the aggregate agg (for the
// last value: DuckDB's last over the values that are not NULL).
func firstLast(window, agg string) func(*writer, *parser.FuncCall) {
	return func(w *writer, f *parser.FuncCall) {
		switch {
		case f.Over != nil:
			w.fcall(window, f, f.Args, " IGNORE NULLS")
		case agg != "":
			w.fcall(agg, f, f.Args, "")
		default:
			w.fcall("last", f, f.Args, "")
			w.str(" FILTER (WHERE ")
			w.operand(f.Args[0], precAdd)
			w.str(" IS NOT NULL)")
		}
	}
}

// logFunc is LOG(x), the natural logarithm (DuckDB's log is base 10),
// and LOG(base, x).
func logFunc(w *writer, f *parser.FuncCall) {
	if len(f.Args) == 1 {
		w.fcall("ln", f, f.Args, "")
		return
	}
	w.str("(ln(")
	w.expr(f.Args[1])
	w.str(") / ln(")
	w.expr(f.Args[0])
	w.str("))")
}

// concat is Flink's CONCAT, NULL when an argument is NULL: DuckDB's
// concat skips NULL arguments, its || does not.
func concat(w *writer, f *parser.FuncCall) {
	w.str("(")
	for i, a := range f.Args {
		if i > 0 {
			w.str(" || ")
		}
		w.operand(a, precPrimary)
	}
	w.str(")")
}

// position is POSITION(sub IN s) (the parser's POSITION(sub, s)).
func position(w *writer, f *parser.FuncCall) {
	w.str("strpos(")
	w.expr(f.Args[1])
	w.str(", ")
	w.expr(f.Args[0])
	w.str(")")
}

// locate is LOCATE(sub, s [, from]): the position of sub in s at or
// after from, 0 when there is none.
func locate(w *writer, f *parser.FuncCall) {
	if len(f.Args) == 2 {
		position(w, f)
		return
	}
	sub, s, from := f.Args[0], f.Args[1], f.Args[2]
	find := func() {
		w.str("strpos(substring(")
		w.expr(s)
		w.str(", ")
		w.expr(from)
		w.str("), ")
		w.expr(sub)
		w.str(")")
	}
	w.str("CASE WHEN ")
	find()
	w.str(" = 0 THEN 0 ELSE ")
	find()
	w.str(" + ")
	w.operand(from, precMul)
	w.str(" - 1 END")
}

// regexpReplace replaces every match, as Flink (Java) does; DuckDB
// replaces the first one unless told 'g'. A literal replacement's $n
// group references become RE2's \n.
func regexpReplace(w *writer, f *parser.FuncCall) {
	w.str("regexp_replace(")
	w.exprList(f.Args[:2])
	w.str(", ")
	if l, ok := f.Args[2].(*parser.Literal); ok && l.Kind == parser.LitString {
		w.str(sqlString(javaReplacement(l.Text)))
	} else {
		w.expr(f.Args[2])
	}
	w.str(", 'g')")
}

// javaReplacement rewrites a java.util.regex replacement for RE2: $n is
// group n, \c is the character c.
func javaReplacement(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] == '\\' {
				b.WriteString(`\\`)
			} else {
				b.WriteByte(s[i])
			}
		case c == '$' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			b.WriteByte('\\')
			b.WriteByte(s[i+1])
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// regexpExtract is REGEXP_EXTRACT(s, regex [, group]): NULL when the
// regex does not match (DuckDB's regexp_extract gives an empty string).
func regexpExtract(w *writer, f *parser.FuncCall) {
	w.str("CASE WHEN regexp_matches(")
	w.exprList(f.Args[:2])
	w.str(") THEN regexp_extract(")
	w.exprList(f.Args[:2])
	w.str(", ")
	w.argOr(f, 2, "0")
	w.str(") END")
}

// argOr writes argument i of f, or def when f has fewer.
func (w *writer) argOr(f *parser.FuncCall, i int, def string) {
	if i < len(f.Args) {
		w.expr(f.Args[i])
	} else {
		w.str(def)
	}
}

func uuid(w *writer, _ *parser.FuncCall) { w.str("CAST(uuid() AS VARCHAR)") }

func ifFunc(w *writer, f *parser.FuncCall) {
	w.str("CASE WHEN ")
	w.expr(f.Args[0])
	w.str(" THEN ")
	w.expr(f.Args[1])
	w.str(" ELSE ")
	w.expr(f.Args[2])
	w.str(" END")
}

// nullIfAnyNull is GREATEST and LEAST, NULL in Flink when an argument is
// NULL (DuckDB's skip NULL arguments).
func nullIfAnyNull(name string) func(*writer, *parser.FuncCall) {
	return func(w *writer, f *parser.FuncCall) {
		w.str("CASE WHEN ")
		for i, a := range f.Args {
			if i > 0 {
				w.str(" OR ")
			}
			w.operand(a, precAdd)
			w.str(" IS NULL")
		}
		w.str(" THEN NULL ELSE ")
		w.fcall(name, f, f.Args, "")
		w.str(" END")
	}
}
