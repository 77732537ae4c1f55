package engine

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/internal/plural"
	"github.com/gofluss/fluss/planner"
)

// callArgs are the bound arguments of a CALL, by parameter name. A
// variadic parameter collects every value given for it, with ARRAY values
// flattened.
type callArgs struct {
	proc   string
	values map[string][]any
}

// procedureFunc runs one procedure and returns its result rows.
type procedureFunc func(ctx context.Context, adm *flussrpc.Admin, a *callArgs) ([][]any, error)

// procedureFuncs has one entry per procedure of planner.Procedures.
var procedureFuncs = map[string]procedureFunc{
	"sys.add_acl":                  callAddACL,
	"sys.drop_acl":                 callDropACL,
	"sys.list_acl":                 callListACL,
	"sys.get_cluster_configs":      callGetClusterConfigs,
	"sys.set_cluster_configs":      alterPairs(flussrpc.ConfigSet, "set %s to '%s'"),
	"sys.append_cluster_configs":   alterPairs(flussrpc.ConfigAppend, "appended '%[2]s' to %[1]s"),
	"sys.subtract_cluster_configs": alterPairs(flussrpc.ConfigSubtract, "subtracted '%[2]s' from %[1]s"),
	"sys.reset_cluster_configs":    callResetClusterConfigs,
	"sys.add_server_tag":           serverTagCall((*flussrpc.Admin).AddServerTag),
	"sys.remove_server_tag":        serverTagCall((*flussrpc.Admin).RemoveServerTag),
	"sys.rebalance":                callRebalance,
	"sys.list_rebalance":           callListRebalance,
	"sys.cancel_rebalance":         callCancelRebalance,
	"sys.drop_kv_snapshot_lease":   callDropKVSnapshotLease,
}

// execCall runs a CALL. Procedures change cluster state, so like DDL they
// are sent once and never retried by the driver.
func (c *Session) execCall(ctx context.Context, p *planner.Call, b *binder) (driver.Rows, error) {
	run, ok := procedureFuncs[p.Procedure]
	if !ok {
		return nil, fmt.Errorf("fluss: procedure %s is not executed by this version of the driver", p.Procedure)
	}
	args, err := bindCall(p, b)
	if err != nil {
		return nil, err
	}
	rows, err := run(ctx, c.client.Admin(), args)
	if err != nil {
		return nil, err
	}
	return newMemRows(p.Output, rows, c.outOptions()), nil
}

func bindCall(p *planner.Call, b *binder) (*callArgs, error) {
	a := &callArgs{proc: p.Procedure, values: map[string][]any{}}
	for _, arg := range p.Args {
		v, err := b.value(arg.Value)
		if err != nil {
			return nil, err
		}
		if list, ok := v.([]any); ok {
			a.values[arg.Name] = append(a.values[arg.Name], list...)
		} else {
			a.values[arg.Name] = append(a.values[arg.Name], v)
		}
	}
	return a, nil
}

// str returns a single string argument; ok is false when it is absent or
// NULL, which the procedures treat alike, as Flink's do.
func (a *callArgs) str(name string) (s string, ok bool, err error) {
	vs := a.values[name]
	if len(vs) == 0 || vs[0] == nil {
		return "", false, nil
	}
	if len(vs) > 1 {
		return "", false, fmt.Errorf("fluss: %s: argument %s takes one value, got %d", a.proc, name, len(vs))
	}
	switch v := vs[0].(type) {
	case string:
		return strings.TrimSpace(v), true, nil
	case int8, int16, int32, int64:
		return fmt.Sprint(v), true, nil
	}
	return "", false, fmt.Errorf("fluss: %s: argument %s must be a string, got %T", a.proc, name, vs[0])
}

// required is str for an argument that may not be NULL or empty.
func (a *callArgs) required(name string) (string, error) {
	s, ok, err := a.str(name)
	if err == nil && (!ok || s == "") {
		err = fmt.Errorf("fluss: %s: argument %s cannot be NULL or empty", a.proc, name)
	}
	return s, err
}

// strs returns every value of a variadic argument.
func (a *callArgs) strs(name string) ([]string, error) {
	out := make([]string, 0, len(a.values[name]))
	for i, v := range a.values[name] {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("fluss: %s: value %d of %s must be a non-NULL string, got %v", a.proc, i+1, name, v)
		}
		out = append(out, s)
	}
	return out, nil
}

// list splits a comma-separated argument such as '0,1' or
// 'REPLICA_DISTRIBUTION,LEADER_DISTRIBUTION', as Flink's procedures do.
func (a *callArgs) list(name string) ([]string, error) {
	s, err := a.required(name)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out, nil
}

// success is the result of procedures that report nothing but success,
// as Flink's do.
func success() [][]any { return [][]any{{"success"}} }

// ---------------------------------------------------------------------------
// ACLs, with Flink's argument conventions: resource 'cluster',
// 'cluster.db' or 'cluster.db.table'; principal 'Type:Name' or 'ALL' (every
// principal); 'ANY' (or NULL) for resource, permission, principal and
// operation matches anything in a filter; host defaults to '*', and 'ANY'
// matches any host.

// aclFilter parses the ACL arguments; wildcards names those that were ANY,
// which may filter but cannot be granted.
func aclFilter(a *callArgs) (f flussrpc.ACLFilter, wildcards []string, err error) {
	vals := map[string]string{}
	for _, name := range []string{"resource", "permission", "principal", "operation", "host"} {
		s, ok, err := a.str(name)
		switch {
		case err != nil:
			return f, nil, err
		case name == "host" && !ok:
			s = flussrpc.WildcardHost // Flink's default
		case !ok || strings.EqualFold(s, "ANY"):
			wildcards = append(wildcards, name)
			continue
		}
		vals[name] = s
	}
	f.Host = vals["host"]
	if r, ok := vals["resource"]; ok {
		f.ResourceType, f.ResourceName, err = parseACLResource(a.proc, r)
	}
	if p, ok := vals["permission"]; ok && err == nil {
		f.Permission, err = flussrpc.ParseACLPermission(p)
	}
	if p, ok := vals["principal"]; ok && err == nil {
		f.PrincipalType, f.PrincipalName, err = parsePrincipal(a.proc, p)
	}
	if o, ok := vals["operation"]; ok && err == nil {
		f.Operation, err = flussrpc.ParseACLOperation(o)
	}
	return f, wildcards, err
}

func parseACLResource(proc, r string) (flussrpc.ResourceType, string, error) {
	parts := strings.Split(r, ".")
	if len(parts) > 3 || !strings.EqualFold(parts[0], "cluster") || slices.Contains(parts, "") {
		return 0, "", fmt.Errorf("fluss: %s: resource %q must be 'cluster', 'cluster.<database>' or 'cluster.<database>.<table>'", proc, r)
	}
	switch len(parts) {
	case 1:
		return flussrpc.ResourceCluster, flussrpc.ClusterResourceName, nil
	case 2:
		return flussrpc.ResourceDatabase, parts[1], nil
	}
	return flussrpc.ResourceTable, parts[1] + "." + parts[2], nil
}

func parsePrincipal(proc, p string) (typ, name string, err error) {
	if strings.EqualFold(p, "ALL") {
		return "*", "*", nil
	}
	typ, name, ok := strings.Cut(p, ":")
	if !ok || typ == "" || name == "" || strings.Contains(name, ":") {
		return "", "", fmt.Errorf("fluss: %s: principal %q must be 'Type:Name' (e.g. 'User:alice') or 'ALL'", proc, p)
	}
	return typ, name, nil
}

func callAddACL(ctx context.Context, adm *flussrpc.Admin, a *callArgs) ([][]any, error) {
	f, wildcards, err := aclFilter(a)
	if err != nil {
		return nil, err
	}
	if len(wildcards) > 0 {
		return nil, fmt.Errorf("fluss: %s: ANY (or NULL) in %s can only filter (list_acl, drop_acl); an ACL entry needs concrete values", a.proc, strings.Join(wildcards, ", "))
	}
	return success(), adm.CreateACLs(ctx, flussrpc.ACL(f))
}

func callDropACL(ctx context.Context, adm *flussrpc.Admin, a *callArgs) ([][]any, error) {
	f, _, err := aclFilter(a)
	if err != nil {
		return nil, err
	}
	_, err = adm.DropACLs(ctx, f)
	return success(), err
}

func callListACL(ctx context.Context, adm *flussrpc.Admin, a *callArgs) ([][]any, error) {
	f, _, err := aclFilter(a)
	if err != nil {
		return nil, err
	}
	acls, err := adm.ListACLs(ctx, f)
	if err != nil {
		return nil, err
	}
	rows := make([][]any, 0, len(acls))
	for _, acl := range acls {
		rows = append(rows, aclRow(acl))
	}
	slices.SortFunc(rows, func(x, y []any) int { return strings.Compare(fmt.Sprint(x...), fmt.Sprint(y...)) })
	return rows, nil
}

// aclRow renders an entry with the argument conventions, so that a row
// can be passed back to drop_acl.
func aclRow(acl flussrpc.ACL) []any {
	resource := "cluster"
	if acl.ResourceType != flussrpc.ResourceCluster {
		resource += "." + acl.ResourceName
	}
	return []any{resource, acl.Permission.String(), acl.PrincipalType + ":" + acl.PrincipalName, acl.Operation.String(), acl.Host}
}

// ---------------------------------------------------------------------------
// Cluster configuration

func callGetClusterConfigs(ctx context.Context, adm *flussrpc.Admin, a *callArgs) ([][]any, error) {
	keys, err := a.strs("config_keys")
	if err != nil {
		return nil, err
	}
	entries, err := adm.DescribeClusterConfigs(ctx)
	if err != nil {
		return nil, err
	}
	row := func(e flussrpc.ConfigEntry) []any {
		var v any
		if e.Value != nil {
			v = *e.Value
		}
		return []any{e.Key, v, e.Source}
	}
	var rows [][]any
	if len(keys) == 0 {
		slices.SortFunc(entries, func(x, y flussrpc.ConfigEntry) int { return strings.Compare(x.Key, y.Key) })
		for _, e := range entries {
			rows = append(rows, row(e))
		}
		return rows, nil
	}
	// Flink answers in the order of the keys asked for, skipping unknown
	// ones.
	for _, k := range keys {
		if i := slices.IndexFunc(entries, func(e flussrpc.ConfigEntry) bool { return e.Key == k }); i >= 0 {
			rows = append(rows, row(entries[i]))
		}
	}
	return rows, nil
}

// alterPairs makes set/append/subtract_cluster_configs: key, value pairs
// applied in one request, all or nothing.
func alterPairs(op flussrpc.ConfigOp, done string) procedureFunc {
	return func(ctx context.Context, adm *flussrpc.Admin, a *callArgs) ([][]any, error) {
		pairs, err := a.strs("config_pairs")
		if err != nil {
			return nil, err
		}
		if len(pairs)%2 != 0 {
			return nil, fmt.Errorf("fluss: %s: config_pairs must come in key, value pairs; got %s", a.proc, plural.Count(len(pairs), "value"))
		}
		var changes []flussrpc.AlterConfig
		var rows [][]any
		for i := 0; i < len(pairs); i += 2 {
			key := strings.TrimSpace(pairs[i])
			if key == "" {
				return nil, fmt.Errorf("fluss: %s: configuration key %d is empty", a.proc, i/2+1)
			}
			changes = append(changes, flussrpc.AlterConfig{Key: key, Value: pairs[i+1], Op: op})
			rows = append(rows, []any{fmt.Sprintf(done, key, pairs[i+1])})
		}
		return rows, adm.AlterClusterConfigs(ctx, changes...)
	}
}

func callResetClusterConfigs(ctx context.Context, adm *flussrpc.Admin, a *callArgs) ([][]any, error) {
	keys, err := a.strs("config_keys")
	if err != nil {
		return nil, err
	}
	var changes []flussrpc.AlterConfig
	var rows [][]any
	for i, k := range keys {
		if k = strings.TrimSpace(k); k == "" {
			return nil, fmt.Errorf("fluss: %s: configuration key %d is empty", a.proc, i+1)
		}
		changes = append(changes, flussrpc.AlterConfig{Key: k, Op: flussrpc.ConfigDelete})
		rows = append(rows, []any{"reset " + k + " to its initial value"})
	}
	return rows, adm.AlterClusterConfigs(ctx, changes...)
}

// ---------------------------------------------------------------------------
// Server tags, rebalance, KV snapshot leases

// serverTagCall makes add/remove_server_tag: tabletServers is '0' or
// '0,1', serverTag a tag name.
func serverTagCall(apply func(*flussrpc.Admin, context.Context, []int32, flussrpc.ServerTag) error) procedureFunc {
	return func(ctx context.Context, adm *flussrpc.Admin, a *callArgs) ([][]any, error) {
		list, err := a.list("tabletServers")
		if err != nil {
			return nil, err
		}
		ids := make([]int32, len(list))
		for i, s := range list {
			id, err := strconv.ParseInt(s, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("fluss: %s: tabletServers %q: each server id must be an integer (e.g. '0' or '0,1')", a.proc, s)
			}
			ids[i] = int32(id)
		}
		tagName, err := a.required("serverTag")
		if err != nil {
			return nil, err
		}
		tag, err := flussrpc.ParseServerTag(tagName)
		if err != nil {
			return nil, err
		}
		return success(), apply(adm, ctx, ids, tag)
	}
}

func callRebalance(ctx context.Context, adm *flussrpc.Admin, a *callArgs) ([][]any, error) {
	names, err := a.list("priorityGoals")
	if err != nil {
		return nil, err
	}
	goals := make([]flussrpc.RebalanceGoal, len(names))
	for i, n := range names {
		if goals[i], err = flussrpc.ParseRebalanceGoal(n); err != nil {
			return nil, err
		}
	}
	id, err := adm.Rebalance(ctx, goals...)
	if err != nil {
		return nil, err
	}
	return [][]any{{id}}, nil
}

func callListRebalance(ctx context.Context, adm *flussrpc.Admin, a *callArgs) ([][]any, error) {
	id, _, err := a.str("rebalanceId")
	if err != nil {
		return nil, err
	}
	p, err := adm.ListRebalanceProgress(ctx, id)
	if err != nil || p == nil {
		return nil, err
	}
	plan, err := json.Marshal(rebalancePlanJSON(p))
	if err != nil {
		return nil, err
	}
	progress := strconv.FormatFloat(p.Fraction()*100, 'f', 2, 64) + "%"
	return [][]any{{p.ID, p.Status.String(), progress, string(plan)}}, nil
}

// bucketMoveJSON is the JSON form of one bucket's move in rebalance_plan.
type bucketMoveJSON struct {
	TableID          int64   `json:"table_id"`
	PartitionID      *int64  `json:"partition_id,omitempty"`
	Bucket           int32   `json:"bucket_id"`
	OriginalLeader   *int32  `json:"original_leader,omitempty"`
	NewLeader        *int32  `json:"new_leader,omitempty"`
	OriginalReplicas []int32 `json:"original_replicas"`
	NewReplicas      []int32 `json:"new_replicas"`
	Status           string  `json:"status"`
}

func rebalancePlanJSON(p *flussrpc.RebalanceProgress) []bucketMoveJSON {
	out := make([]bucketMoveJSON, len(p.Moves))
	for i, m := range p.Moves {
		out[i] = bucketMoveJSON{TableID: m.TableID, PartitionID: m.PartitionID, Bucket: m.Bucket,
			OriginalLeader: m.OriginalLeader, NewLeader: m.NewLeader,
			OriginalReplicas: m.OriginalReplicas, NewReplicas: m.NewReplicas, Status: m.Status.String()}
	}
	return out
}

func callCancelRebalance(ctx context.Context, adm *flussrpc.Admin, a *callArgs) ([][]any, error) {
	id, _, err := a.str("rebalanceId")
	if err != nil {
		return nil, err
	}
	return success(), adm.CancelRebalance(ctx, id)
}

func callDropKVSnapshotLease(ctx context.Context, adm *flussrpc.Admin, a *callArgs) ([][]any, error) {
	id, err := a.required("leaseId")
	if err != nil {
		return nil, err
	}
	return success(), adm.DropKVSnapshotLease(ctx, id)
}
