package flussrpc_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc"
)

func TestParseEnums(t *testing.T) {
	if op, err := flussrpc.ParseACLOperation(" describe "); err != nil || op != flussrpc.OperationDescribe {
		t.Errorf("ParseACLOperation = %v, %v", op, err)
	}
	if tag, err := flussrpc.ParseServerTag("permanent_offline"); err != nil || tag != flussrpc.PermanentOffline {
		t.Errorf("ParseServerTag = %v, %v", tag, err)
	}
	_, err := flussrpc.ParseRebalanceGoal("BALANCED")
	if err == nil || !strings.Contains(err.Error(), `unknown rebalance goal "BALANCED" (one of REPLICA_DISTRIBUTION, LEADER_DISTRIBUTION, RACK_AWARE)`) {
		t.Errorf("ParseRebalanceGoal: %v", err)
	}
	if s := flussrpc.ACLOperation(99).String(); s != "99" {
		t.Errorf("unknown operation prints %q", s)
	}
}

func TestACLValidationSendsNothing(t *testing.T) {
	// Validation fails before a request is built, so nothing is sent.
	c := newClient(t, flussrpc.Config{})
	good := flussrpc.ACL{ResourceType: flussrpc.ResourceCluster, ResourceName: flussrpc.ClusterResourceName,
		PrincipalType: "User", PrincipalName: "bob", Host: flussrpc.WildcardHost,
		Operation: flussrpc.OperationRead, Permission: flussrpc.PermissionAllow}
	tests := []struct {
		name string
		edit func(*flussrpc.ACL)
		want string
	}{
		{"any resource", func(a *flussrpc.ACL) { a.ResourceType = flussrpc.ResourceAny }, "resource type ANY cannot be granted"},
		{"no name", func(a *flussrpc.ACL) { a.ResourceName = "" }, "needs a resource name"},
		{"no principal", func(a *flussrpc.ACL) { a.PrincipalName = "" }, "needs a principal"},
		{"no host", func(a *flussrpc.ACL) { a.Host = "" }, "needs a host"},
		{"any operation", func(a *flussrpc.ACL) { a.Operation = flussrpc.OperationAny }, "operation ANY cannot be granted"},
		{"any permission", func(a *flussrpc.ACL) { a.Permission = flussrpc.PermissionAny }, "permission ANY cannot be granted"},
	}
	for _, tt := range tests {
		acl := good
		tt.edit(&acl)
		if err := c.Admin().CreateACLs(testCtx(t), acl); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestACLRoundTrip creates, lists and drops a table-level entry with the
// native Admin. Listing polls: entries reach the servers' caches through
// ZooKeeper after CreateACLs returned.
func TestACLRoundTrip(t *testing.T) {
	adm := newClient(t, flussrpc.Config{}).Admin()
	db := newDatabase(t, adm)
	acl := flussrpc.ACL{ResourceType: flussrpc.ResourceTable, ResourceName: db + ".t",
		PrincipalType: "User", PrincipalName: "carol", Host: flussrpc.WildcardHost,
		Operation: flussrpc.OperationWrite, Permission: flussrpc.PermissionAllow}
	filter := flussrpc.ACLFilter{ResourceType: flussrpc.ResourceTable, ResourceName: db + ".t"}
	t.Cleanup(func() { adm.DropACLs(testCtx(t), filter) })
	if err := adm.CreateACLs(testCtx(t), acl); err != nil {
		t.Fatalf("CreateACLs: %v", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, err := adm.ListACLs(testCtx(t), filter)
		if err != nil {
			t.Fatalf("ListACLs: %v", err)
		}
		if slices.Equal(got, []flussrpc.ACL{acl}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("ListACLs = %+v, want [%+v]", got, acl)
		}
		time.Sleep(200 * time.Millisecond)
	}
	dropped, err := adm.DropACLs(testCtx(t), filter, flussrpc.ACLFilter{PrincipalName: "nobody-" + db})
	if err != nil || !slices.Equal(dropped, []flussrpc.ACL{acl}) {
		t.Fatalf("DropACLs = %+v, %v", dropped, err)
	}
}

func TestClusterConfigErrors(t *testing.T) {
	adm := newClient(t, flussrpc.Config{}).Admin()
	if err := adm.AlterClusterConfigs(testCtx(t)); err == nil {
		t.Error("AlterClusterConfigs without changes succeeded")
	}
	err := adm.AlterClusterConfigs(testCtx(t), flussrpc.AlterConfig{Key: "no.such.key", Value: "1"})
	if !errors.Is(err, flussrpc.ErrUnknownServerError) || !strings.Contains(err.Error(), "not allowed to be changed dynamically") {
		t.Errorf("altering an unknown key: %v", err)
	}
	entries, err := adm.DescribeClusterConfigs(testCtx(t))
	if err != nil || !slices.ContainsFunc(entries, func(e flussrpc.ConfigEntry) bool {
		return e.Key == "default.bucket.number" && e.Value != nil && *e.Value == "1" && e.Source == "INITIAL_SERVER_CONFIG"
	}) {
		t.Errorf("DescribeClusterConfigs = %+v, %v", entries, err)
	}
}
