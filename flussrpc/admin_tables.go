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

// TableInfo is a table as the cluster describes it (see schema.TableInfo).
type TableInfo = schema.TableInfo

// SchemaInfo is one version of a table's schema.
type SchemaInfo struct {
	ID     int32
	Schema schema.Schema
}

// CreateTable creates a table from its descriptor. With ignoreIfExists an
// existing table is not an error (ErrTableAlreadyExist otherwise).
//
// It returns once every bucket has a leader (of every partition, for a
// partitioned table: an auto-partitioned one first gets its pre-created
// partitions), so the table is usable at once; if that does not happen
// within the client's request timeout (or before ctx ends, if sooner),
// the error wraps ErrNoLeaders: the table exists, but needs to be dropped
// and created again. NoLeaderWait skips the wait.
func (a *Admin) CreateTable(ctx context.Context, path TablePath, desc schema.TableDescriptor, ignoreIfExists bool, opts ...CreateOption) error {
	if err := checkTable(path, true); err != nil {
		return err
	}
	js, err := json.Marshal(desc)
	if err != nil {
		return fmt.Errorf("flussrpc: table %s: %w", path, err)
	}
	if err := checkStoredSize("table "+path.String(), len(js), desc.Properties, desc.CustomProperties); err != nil {
		return err
	}
	req := &pb.CreateTableRequest{TablePath: pbPath(path), TableJson: js, IgnoreIfExists: proto.Bool(ignoreIfExists)}
	err = callCoordinator(ctx, a.c, rpcCreateTable, req, &pb.CreateTableResponse{})
	a.c.ForgetTable(path)
	if err != nil {
		return err
	}
	if applyCreateOptions(opts).noLeaderWait {
		return nil
	}
	return a.waitForTableLeaders(ctx, path, desc)
}

// DropTable drops a table and all its data.
func (a *Admin) DropTable(ctx context.Context, path TablePath, ignoreIfNotExists bool) error {
	if err := checkTable(path, false); err != nil {
		return err
	}
	req := &pb.DropTableRequest{TablePath: pbPath(path), IgnoreIfNotExists: proto.Bool(ignoreIfNotExists)}
	err := callCoordinator(ctx, a.c, rpcDropTable, req, &pb.DropTableResponse{})
	a.c.meta.invalidate(PhysicalPath{TablePath: path})
	a.c.ForgetTable(path)
	return err
}

// GetTableInfo returns the table's id, latest schema and descriptor.
func (a *Admin) GetTableInfo(ctx context.Context, path TablePath) (*TableInfo, error) {
	if err := checkTable(path, false); err != nil {
		return nil, err
	}
	var resp pb.GetTableInfoResponse
	if err := callAnyRead(ctx, a.c, rpcGetTableInfo, &pb.GetTableInfoRequest{TablePath: pbPath(path)}, &resp); err != nil {
		return nil, err
	}
	info := &TableInfo{
		Path:          path,
		TableID:       resp.GetTableId(),
		SchemaID:      resp.GetSchemaId(),
		CreatedTime:   time.UnixMilli(resp.GetCreatedTime()),
		ModifiedTime:  time.UnixMilli(resp.GetModifiedTime()),
		RemoteDataDir: resp.GetRemoteDataDir(),
	}
	if err := json.Unmarshal(resp.GetTableJson(), &info.Descriptor); err != nil {
		return nil, fmt.Errorf("flussrpc: table %s has an unreadable descriptor: %w", path, err)
	}
	return info, nil
}

// GetTableSchema returns one schema version of a table; schemaID < 0 asks
// for the latest. Readers need it for rows written with an older schema.
func (a *Admin) GetTableSchema(ctx context.Context, path TablePath, schemaID int32) (*SchemaInfo, error) {
	req := &pb.GetTableSchemaRequest{TablePath: pbPath(path)}
	if schemaID >= 0 {
		req.SchemaId = proto.Int32(schemaID)
	}
	var resp pb.GetTableSchemaResponse
	if err := callAnyRead(ctx, a.c, rpcGetTableSchema, req, &resp); err != nil {
		return nil, err
	}
	info := &SchemaInfo{ID: resp.GetSchemaId()}
	if err := json.Unmarshal(resp.GetSchemaJson(), &info.Schema); err != nil {
		return nil, fmt.Errorf("flussrpc: schema %d of %s is unreadable: %w", info.ID, path, err)
	}
	return info, nil
}

// ListTables returns the names of the tables in a database.
func (a *Admin) ListTables(ctx context.Context, database string) ([]string, error) {
	if err := checkDatabase(database, false); err != nil {
		return nil, err
	}
	var resp pb.ListTablesResponse
	if err := callAnyRead(ctx, a.c, rpcListTables, &pb.ListTablesRequest{DatabaseName: proto.String(database)}, &resp); err != nil {
		return nil, err
	}
	return resp.GetTableName(), nil
}

// TableExists reports whether a table exists.
func (a *Admin) TableExists(ctx context.Context, path TablePath) (bool, error) {
	if err := checkTable(path, false); err != nil {
		return false, err
	}
	var resp pb.TableExistsResponse
	err := callAnyRead(ctx, a.c, rpcTableExists, &pb.TableExistsRequest{TablePath: pbPath(path)}, &resp)
	return resp.GetExists(), err
}

// TableChange is one change of an AlterTable call. Build it with
// SetOption, ResetOption, AddColumn, DropColumn, RenameColumn or
// ModifyColumn. Fluss 0.9 servers accept option changes and adding a
// nullable column at the end; they refuse the other column changes.
type TableChange struct {
	apply func(*pb.AlterTableRequest) error
}

// columnPosLast is the PbAddColumn.column_position_type of "at the end".
const columnPosLast = 0

// SetOption sets a table option (a table.* property or a custom property).
func SetOption(key, value string) TableChange {
	return TableChange{apply: func(r *pb.AlterTableRequest) error {
		r.ConfigChanges = append(r.ConfigChanges, AlterConfig{Key: key, Value: value, Op: ConfigSet}.pb())
		return nil
	}}
}

// ResetOption removes a table option, restoring its default.
func ResetOption(key string) TableChange {
	return TableChange{apply: func(r *pb.AlterTableRequest) error {
		r.ConfigChanges = append(r.ConfigChanges, AlterConfig{Key: key, Op: ConfigDelete}.pb())
		return nil
	}}
}

// AddColumn appends a column at the end of the schema. The server requires
// it to be nullable.
func AddColumn(col schema.Column) TableChange {
	return TableChange{apply: func(r *pb.AlterTableRequest) error {
		js, err := json.Marshal(col.Type)
		if err != nil {
			return err
		}
		add := &pb.PbAddColumn{ColumnName: proto.String(col.Name), DataTypeJson: js, ColumnPositionType: proto.Int32(columnPosLast)}
		if col.Comment != "" {
			add.Comment = proto.String(col.Comment)
		}
		r.AddColumns = append(r.AddColumns, add)
		return nil
	}}
}

// DropColumn removes a column (refused by Fluss 0.9 servers).
func DropColumn(name string) TableChange {
	return TableChange{apply: func(r *pb.AlterTableRequest) error {
		r.DropColumns = append(r.DropColumns, &pb.PbDropColumn{ColumnName: proto.String(name)})
		return nil
	}}
}

// RenameColumn renames a column (refused by Fluss 0.9 servers).
func RenameColumn(oldName, newName string) TableChange {
	return TableChange{apply: func(r *pb.AlterTableRequest) error {
		r.RenameColumns = append(r.RenameColumns, &pb.PbRenameColumn{OldColumnName: proto.String(oldName), NewColumnName: proto.String(newName)})
		return nil
	}}
}

// ModifyColumn changes a column's type and comment (refused by Fluss 0.9 servers).
func ModifyColumn(col schema.Column) TableChange {
	return TableChange{apply: func(r *pb.AlterTableRequest) error {
		js, err := json.Marshal(col.Type)
		if err != nil {
			return err
		}
		m := &pb.PbModifyColumn{ColumnName: proto.String(col.Name), DataTypeJson: js}
		if col.Comment != "" {
			m.Comment = proto.String(col.Comment)
		}
		r.ModifyColumns = append(r.ModifyColumns, m)
		return nil
	}}
}

// AlterTable applies changes to a table in one request. The server takes
// either option changes or schema changes in one request, not both
// (ErrInvalidAlterTable); make two calls for both.
func (a *Admin) AlterTable(ctx context.Context, path TablePath, ignoreIfNotExists bool, changes ...TableChange) error {
	req := &pb.AlterTableRequest{TablePath: pbPath(path), IgnoreIfNotExists: proto.Bool(ignoreIfNotExists)}
	for _, ch := range changes {
		if ch.apply == nil {
			return fmt.Errorf("flussrpc: AlterTable on %s: zero TableChange", path)
		}
		if err := ch.apply(req); err != nil {
			return fmt.Errorf("flussrpc: AlterTable on %s: %w", path, err)
		}
	}
	set, size := make(map[string]string), 0
	for _, c := range req.ConfigChanges {
		set[c.GetConfigKey()] = c.GetConfigValue()
		size += len(c.GetConfigKey()) + len(c.GetConfigValue())
	}
	if err := checkStoredSize("the option changes of table "+path.String(), size, set); err != nil {
		return err
	}
	err := callCoordinator(ctx, a.c, rpcAlterTable, req, &pb.AlterTableResponse{})
	a.c.meta.invalidate(PhysicalPath{TablePath: path})
	a.c.ForgetTable(path)
	return err
}
