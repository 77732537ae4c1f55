package flussrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// Admin is the catalog and cluster API of a Client: databases, tables,
// partitions, offsets, snapshots and server nodes. Catalog writes go to the
// coordinator and are never retried automatically (they are not
// idempotent); reads go to any server and are retried once after a
// retriable failure.
type Admin struct {
	c *Client
}

// DatabaseInfo describes a database.
type DatabaseInfo struct {
	Name         string
	Descriptor   schema.DatabaseDescriptor
	CreatedTime  time.Time
	ModifiedTime time.Time
}

// CreateDatabase creates a database. With ignoreIfExists an existing
// database is not an error (ErrDatabaseAlreadyExist otherwise).
func (a *Admin) CreateDatabase(ctx context.Context, name string, desc schema.DatabaseDescriptor, ignoreIfExists bool) error {
	if err := checkDatabase(name, true); err != nil {
		return err
	}
	js, err := json.Marshal(desc)
	if err != nil {
		return err
	}
	if err := checkStoredSize("database "+name, len(js), desc.CustomProperties); err != nil {
		return err
	}
	req := &pb.CreateDatabaseRequest{
		DatabaseName:   proto.String(name),
		IgnoreIfExists: proto.Bool(ignoreIfExists),
		DatabaseJson:   js,
	}
	return callCoordinator(ctx, a.c, rpcCreateDatabase, req, &pb.CreateDatabaseResponse{})
}

// DropDatabase drops a database. Without cascade a database that still has
// tables is refused with ErrDatabaseNotEmpty.
func (a *Admin) DropDatabase(ctx context.Context, name string, ignoreIfNotExists, cascade bool) error {
	if err := checkDatabase(name, false); err != nil {
		return err
	}
	req := &pb.DropDatabaseRequest{
		DatabaseName:      proto.String(name),
		IgnoreIfNotExists: proto.Bool(ignoreIfNotExists),
		Cascade:           proto.Bool(cascade),
	}
	err := callCoordinator(ctx, a.c, rpcDropDatabase, req, &pb.DropDatabaseResponse{})
	a.c.forgetDatabase(name)
	return err
}

// ListDatabases returns the names of all databases.
func (a *Admin) ListDatabases(ctx context.Context) ([]string, error) {
	var resp pb.ListDatabasesResponse
	if err := callAnyRead(ctx, a.c, rpcListDatabases, &pb.ListDatabasesRequest{}, &resp); err != nil {
		return nil, err
	}
	return resp.GetDatabaseName(), nil
}

// DatabaseExists reports whether a database exists.
func (a *Admin) DatabaseExists(ctx context.Context, name string) (bool, error) {
	if err := checkDatabase(name, false); err != nil {
		return false, err
	}
	var resp pb.DatabaseExistsResponse
	err := callAnyRead(ctx, a.c, rpcDatabaseExists, &pb.DatabaseExistsRequest{DatabaseName: proto.String(name)}, &resp)
	return resp.GetExists(), err
}

// GetDatabaseInfo returns a database's descriptor and times.
func (a *Admin) GetDatabaseInfo(ctx context.Context, name string) (*DatabaseInfo, error) {
	if err := checkDatabase(name, false); err != nil {
		return nil, err
	}
	var resp pb.GetDatabaseInfoResponse
	if err := callAnyRead(ctx, a.c, rpcGetDatabaseInfo, &pb.GetDatabaseInfoRequest{DatabaseName: proto.String(name)}, &resp); err != nil {
		return nil, err
	}
	info := &DatabaseInfo{
		Name:         name,
		CreatedTime:  time.UnixMilli(resp.GetCreatedTime()),
		ModifiedTime: time.UnixMilli(resp.GetModifiedTime()),
	}
	if err := json.Unmarshal(resp.GetDatabaseJson(), &info.Descriptor); err != nil {
		return nil, fmt.Errorf("flussrpc: database %q has an unreadable descriptor: %w", name, err)
	}
	return info, nil
}

// GetServerNodes returns the coordinator and every live tablet server, as
// freshly reported by the cluster.
func (a *Admin) GetServerNodes(ctx context.Context) ([]ServerNode, error) {
	if err := a.c.refreshCluster(ctx); err != nil {
		return nil, err
	}
	v := a.c.meta.view()
	nodes := make([]ServerNode, 0, len(v.tablets)+1)
	if v.coordinator.Host != "" {
		nodes = append(nodes, v.coordinator)
	}
	return append(nodes, v.tablets...), nil
}
