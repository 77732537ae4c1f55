package planner

import (
	"slices"
	"strings"

	"github.com/gofluss/fluss/flussrpc/schema"
	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/parser"
)

// procedure is the signature of one sys procedure, as Flink's Fluss
// catalog declares it, so that Flink CALL statements plan unchanged.
type procedure struct {
	params []string // argument names in positional order
	// required is how many leading params must be given.
	required int
	// variadic makes the last param take every remaining positional
	// argument (Flink's varargs), or one ARRAY.
	variadic bool
	output   []Column
}

// resultColumns is the output of procedures that report what they did in
// one string per change, as Flink's String[] procedures do.
var resultColumns = cols("result", tString)

var aclColumns = cols("resource", tString, "permission", tString, "principal", tString, "operation", tString, "host", tString)

var procedureSpecs = map[string]procedure{
	"add_acl":                  {params: []string{"resource", "permission", "principal", "operation", "host"}, required: 4, output: resultColumns},
	"drop_acl":                 {params: []string{"resource", "permission", "principal", "operation", "host"}, required: 4, output: resultColumns},
	"list_acl":                 {params: []string{"resource", "permission", "principal", "operation", "host"}, required: 1, output: aclColumns},
	"get_cluster_configs":      {params: []string{"config_keys"}, variadic: true, output: cols("config_key", tString, "config_value", tStringN, "config_source", tString)},
	"set_cluster_configs":      {params: []string{"config_pairs"}, required: 1, variadic: true, output: resultColumns},
	"append_cluster_configs":   {params: []string{"config_pairs"}, required: 1, variadic: true, output: resultColumns},
	"subtract_cluster_configs": {params: []string{"config_pairs"}, required: 1, variadic: true, output: resultColumns},
	"reset_cluster_configs":    {params: []string{"config_keys"}, required: 1, variadic: true, output: resultColumns},
	"add_server_tag":           {params: []string{"tabletServers", "serverTag"}, required: 2, output: resultColumns},
	"remove_server_tag":        {params: []string{"tabletServers", "serverTag"}, required: 2, output: resultColumns},
	"rebalance":                {params: []string{"priorityGoals"}, required: 1, output: resultColumns},
	"list_rebalance":           {params: []string{"rebalanceId"}, output: cols("rebalance_id", tString, "rebalance_status", tString, "rebalance_progress", tString, "rebalance_plan", tString)},
	"cancel_rebalance":         {params: []string{"rebalanceId"}, output: resultColumns},
	"drop_kv_snapshot_lease":   {params: []string{"leaseId"}, required: 1, output: resultColumns},
}

// Procedures lists the catalog's procedures as CALL names them
// ("sys.add_acl", ...), sorted.
func Procedures() []string {
	out := make([]string, 0, len(procedureSpecs))
	for name := range procedureSpecs {
		out = append(out, "sys."+name)
	}
	slices.Sort(out)
	return out
}

// argKey folds an argument name so that Flink's camelCase and snake_case
// spellings (tabletServers, tablet_servers) both match.
func argKey(name string) string {
	return strings.ToLower(strings.ReplaceAll(name, "_", ""))
}

func (p *planCtx) call(s *parser.Call) (Plan, error) {
	parts := s.Procedure
	if len(parts) == 3 {
		if err := p.checkCatalog(parts[0], "CALL"); err != nil {
			return nil, err
		}
		parts = parts[1:]
	}
	var spec procedure
	ok := len(parts) == 2 && strings.EqualFold(parts[0], "sys")
	if ok {
		spec, ok = procedureSpecs[strings.ToLower(parts[1])]
	}
	if !ok {
		return nil, errf("CALL", "unknown procedure %s; the catalog's procedures are %s", strings.Join(s.Procedure, "."), strings.Join(Procedures(), ", "))
	}
	c := &Call{Procedure: "sys." + strings.ToLower(parts[1]), Output: spec.output}
	args, err := spec.bind(c.Procedure, s.Args)
	if err != nil {
		return nil, err
	}
	for _, a := range args {
		v, err := p.constValue(a.Value, "CALL", a.Name)
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, CallArg{Name: a.Name, Value: v})
	}
	c.Params = p.params
	return c, nil
}

// bind names every argument after the parameter it fills, in signature
// order: positional arguments first, then named ones (name => value), as
// Flink allows. Variadic arguments keep the parameter's name, repeated.
func (spec procedure) bind(proc string, in []parser.CallArg) ([]parser.CallArg, error) {
	byParam := make([][]parser.CallArg, len(spec.params))
	pos := 0
	for _, a := range in {
		i := pos
		if a.Name != "" {
			i = slices.IndexFunc(spec.params, func(n string) bool { return argKey(n) == argKey(a.Name) })
			if i < 0 {
				return nil, errf("CALL", "%s has no argument %q; its arguments are %s", proc, a.Name, strings.Join(spec.params, ", "))
			}
		} else {
			if i >= len(spec.params) {
				if !spec.variadic {
					return nil, errf("CALL", "%s takes at most %s (%s)", proc, plural.Count(len(spec.params), "argument"), strings.Join(spec.params, ", "))
				}
				i = len(spec.params) - 1
			}
			pos = i + 1
		}
		if len(byParam[i]) > 0 && !(spec.variadic && i == len(spec.params)-1 && a.Name == "") {
			return nil, errf("CALL", "%s: argument %s given twice", proc, spec.params[i])
		}
		a.Name = spec.params[i]
		byParam[i] = append(byParam[i], a)
	}
	var out []parser.CallArg
	for i, args := range byParam {
		if len(args) == 0 && i < spec.required {
			return nil, errf("CALL", "%s needs the argument %s (arguments: %s)", proc, spec.params[i], strings.Join(spec.params, ", "))
		}
		out = append(out, args...)
	}
	return out, nil
}

// constValue converts a procedure argument: a literal with its own type,
// a parameter (STRING), or ARRAY[...] of strings.
func (p *planCtx) constValue(e parser.Expr, clause, name string) (Value, *Error) {
	switch x := e.(type) {
	case *parser.Literal:
		v, err := literal(x, literalType(x), p.sess.location())
		if err != nil {
			return Value{}, errf(clause, "%v", err)
		}
		return Value{Kind: ValueLiteral, Type: literalType(x), Literal: v}, nil
	case *parser.Param:
		return p.param(x, name, schema.String()), nil
	case *parser.ArrayExpr:
		t := schema.ArrayOf(schema.String())
		v, err := literal(x, t, p.sess.location())
		if err != nil {
			return Value{}, errf(clause, "%v", err)
		}
		return Value{Kind: ValueLiteral, Type: t, Literal: v}, nil
	case *parser.FuncCall:
		if strings.EqualFold(x.Name, "array") {
			return p.constValue(&parser.ArrayExpr{Elems: x.Args}, clause, name)
		}
	}
	return Value{}, errf(clause, "argument %s must be a constant or a parameter", exprText(e))
}
