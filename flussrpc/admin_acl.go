package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// ResourceType is the kind of resource an ACL entry protects. The values
// are the server's codes.
type ResourceType int32

// Resource types. ResourceAny only appears in filters.
const (
	ResourceAny      ResourceType = 1
	ResourceCluster  ResourceType = 2
	ResourceDatabase ResourceType = 3
	ResourceTable    ResourceType = 4
)

// ACLOperation is what an ACL entry allows. The values are the server's
// codes.
type ACLOperation int32

// ACL operations. OperationAll grants every operation; OperationAny only
// appears in filters.
const (
	OperationAny      ACLOperation = 1
	OperationAll      ACLOperation = 2
	OperationRead     ACLOperation = 3
	OperationWrite    ACLOperation = 4
	OperationCreate   ACLOperation = 5
	OperationDrop     ACLOperation = 6
	OperationAlter    ACLOperation = 7
	OperationDescribe ACLOperation = 8
)

// ACLPermission is the effect of an ACL entry. Fluss 0.9 only has ALLOW:
// whatever is not allowed is denied.
type ACLPermission int32

// ACL permissions. PermissionAny only appears in filters.
const (
	PermissionAny   ACLPermission = 1
	PermissionAllow ACLPermission = 2
)

// ClusterResourceName is the name the server gives the cluster resource.
const ClusterResourceName = "fluss-cluster"

// WildcardHost matches every client host in an ACL entry.
const WildcardHost = "*"

// ACL is one access-control entry: Principal may do Operation on the
// resource from Host. Resource names are ClusterResourceName, a database
// name, or "database.table".
type ACL struct {
	ResourceType  ResourceType
	ResourceName  string
	PrincipalType string // "User" for SASL users
	PrincipalName string
	Host          string // WildcardHost for any host
	Operation     ACLOperation
	Permission    ACLPermission
}

// ACLFilter selects ACL entries. Empty strings match anything, as do the
// Any codes.
type ACLFilter struct {
	ResourceType  ResourceType
	ResourceName  string
	PrincipalType string
	PrincipalName string
	Host          string
	Operation     ACLOperation
	Permission    ACLPermission
}

var (
	resourceTypeNames = map[ResourceType]string{ResourceAny: "ANY", ResourceCluster: "CLUSTER", ResourceDatabase: "DATABASE", ResourceTable: "TABLE"}
	operationNames    = map[ACLOperation]string{OperationAny: "ANY", OperationAll: "ALL", OperationRead: "READ", OperationWrite: "WRITE", OperationCreate: "CREATE", OperationDrop: "DROP", OperationAlter: "ALTER", OperationDescribe: "DESCRIBE"}
	permissionNames   = map[ACLPermission]string{PermissionAny: "ANY", PermissionAllow: "ALLOW"}
)

// String returns the server's name of the resource type, e.g. "TABLE".
func (t ResourceType) String() string { return enumName(resourceTypeNames, t) }

// String returns the server's name of the operation, e.g. "READ".
func (o ACLOperation) String() string { return enumName(operationNames, o) }

// String returns the server's name of the permission, e.g. "ALLOW".
func (p ACLPermission) String() string { return enumName(permissionNames, p) }

// ParseACLOperation parses an operation name such as "read" (any case).
func ParseACLOperation(s string) (ACLOperation, error) {
	return parseEnum(operationNames, "operation", s)
}

// ParseACLPermission parses a permission name such as "allow" (any case).
func ParseACLPermission(s string) (ACLPermission, error) {
	return parseEnum(permissionNames, "permission", s)
}

// enumName names a code, or prints it as a number when it is unknown.
func enumName[K ~int32](names map[K]string, k K) string {
	if n, ok := names[k]; ok {
		return n
	}
	return fmt.Sprintf("%d", int32(k))
}

// parseEnum finds the code of a name; the error lists the valid names in
// code order.
func parseEnum[K ~int32](names map[K]string, what, s string) (K, error) {
	codes := slices.Sorted(maps.Keys(names))
	valid := make([]string, 0, len(codes))
	for _, k := range codes {
		if strings.EqualFold(names[k], strings.TrimSpace(s)) {
			return k, nil
		}
		valid = append(valid, names[k])
	}
	return 0, fmt.Errorf("flussrpc: unknown %s %q (one of %s)", what, s, strings.Join(valid, ", "))
}

func (a ACL) pb() *pb.PbAclInfo {
	return &pb.PbAclInfo{
		ResourceName:   proto.String(a.ResourceName),
		ResourceType:   proto.Int32(int32(a.ResourceType)),
		PrincipalName:  proto.String(a.PrincipalName),
		PrincipalType:  proto.String(a.PrincipalType),
		Host:           proto.String(a.Host),
		OperationType:  proto.Int32(int32(a.Operation)),
		PermissionType: proto.Int32(int32(a.Permission)),
	}
}

func aclFromPB(p *pb.PbAclInfo) ACL {
	return ACL{
		ResourceType:  ResourceType(p.GetResourceType()),
		ResourceName:  p.GetResourceName(),
		PrincipalType: p.GetPrincipalType(),
		PrincipalName: p.GetPrincipalName(),
		Host:          p.GetHost(),
		Operation:     ACLOperation(p.GetOperationType()),
		Permission:    ACLPermission(p.GetPermissionType()),
	}
}

// optString leaves a filter field absent (match anything) when empty.
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return proto.String(s)
}

func (f ACLFilter) pb() *pb.PbAclFilter {
	return &pb.PbAclFilter{
		ResourceName:   optString(f.ResourceName),
		ResourceType:   proto.Int32(int32(orAny(f.ResourceType, ResourceAny))),
		PrincipalName:  optString(f.PrincipalName),
		PrincipalType:  optString(f.PrincipalType),
		Host:           optString(f.Host),
		OperationType:  proto.Int32(int32(orAny(f.Operation, OperationAny))),
		PermissionType: proto.Int32(int32(orAny(f.Permission, PermissionAny))),
	}
}

// orAny maps the zero value of a filter code to its ANY code, so that a
// zero ACLFilter matches everything.
func orAny[K ~int32](k, anyCode K) K {
	if k == 0 {
		return anyCode
	}
	return k
}

// validate rejects entries the server would store but nobody could use,
// such as wildcard codes, before anything is sent.
func (a ACL) validate() error {
	switch {
	case a.ResourceType < ResourceCluster || a.ResourceType > ResourceTable:
		return fmt.Errorf("flussrpc: ACL resource type %s cannot be granted; use CLUSTER, DATABASE or TABLE", a.ResourceType)
	case a.ResourceName == "":
		return errors.New("flussrpc: ACL needs a resource name")
	case a.PrincipalType == "" || a.PrincipalName == "":
		return errors.New("flussrpc: ACL needs a principal (type and name, e.g. User:alice)")
	case a.Host == "":
		return errors.New("flussrpc: ACL needs a host (\"*\" for any)")
	case a.Operation < OperationAll || a.Operation > OperationDescribe:
		return fmt.Errorf("flussrpc: ACL operation %s cannot be granted; use ALL, READ, WRITE, CREATE, DROP, ALTER or DESCRIBE", a.Operation)
	case a.Permission != PermissionAllow:
		return fmt.Errorf("flussrpc: ACL permission %s cannot be granted; use ALLOW", a.Permission)
	}
	return nil
}

// CreateACLs adds access-control entries (coordinator; needs the
// authorizer to be enabled, else ErrSecurityDisabled). Entries that fail
// are reported together; the others are kept.
func (a *Admin) CreateACLs(ctx context.Context, acls ...ACL) error {
	req := &pb.CreateAclsRequest{}
	for _, acl := range acls {
		if err := acl.validate(); err != nil {
			return err
		}
		req.Acl = append(req.Acl, acl.pb())
	}
	var resp pb.CreateAclsResponse
	if err := callCoordinator(ctx, a.c, rpcCreateACLs, req, &resp); err != nil {
		return err
	}
	var errs []error
	for _, r := range resp.GetAclRes() {
		errs = append(errs, ErrorFromCode(r.GetErrorCode(), r.GetErrorMessage()))
	}
	return errors.Join(errs...)
}

// ListACLs returns the entries matching the filter; a zero filter lists
// every entry.
func (a *Admin) ListACLs(ctx context.Context, f ACLFilter) ([]ACL, error) {
	var resp pb.ListAclsResponse
	if err := callAnyRead(ctx, a.c, rpcListACLs, &pb.ListAclsRequest{AclFilter: f.pb()}, &resp); err != nil {
		return nil, err
	}
	out := make([]ACL, 0, len(resp.GetAcl()))
	for _, p := range resp.GetAcl() {
		out = append(out, aclFromPB(p))
	}
	return out, nil
}

// DropACLs removes every entry matching any of the filters and returns the
// entries removed. Per-filter and per-entry failures are reported together.
func (a *Admin) DropACLs(ctx context.Context, filters ...ACLFilter) ([]ACL, error) {
	req := &pb.DropAclsRequest{}
	for _, f := range filters {
		req.AclFilter = append(req.AclFilter, f.pb())
	}
	var resp pb.DropAclsResponse
	if err := callCoordinator(ctx, a.c, rpcDropACLs, req, &resp); err != nil {
		return nil, err
	}
	var dropped []ACL
	var errs []error
	for _, fr := range resp.GetFilterResults() {
		errs = append(errs, ErrorFromCode(fr.GetErrorCode(), fr.GetErrorMessage()))
		for _, m := range fr.GetMatchingAcls() {
			if err := ErrorFromCode(m.GetErrorCode(), m.GetErrorMessage()); err != nil {
				errs = append(errs, err)
				continue
			}
			dropped = append(dropped, aclFromPB(m.GetAcl()))
		}
	}
	return dropped, errors.Join(errs...)
}
