package fakefluss

import (
	"fmt"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/flussrpc/schema"
)

// table is one table of the model.
type table struct {
	id         int64
	path       schema.TablePath
	desc       schema.TableDescriptor
	json       []byte // the descriptor as GET_TABLE_INFO returns it
	schemaJSON []byte
	created    int64
	buckets    []*bucket
}

func (c *Cluster) createDatabase(_ int32, req *pb.CreateDatabaseRequest) (proto.Message, error) {
	name := req.GetDatabaseName()
	if _, ok := c.dbs[name]; ok {
		if req.GetIgnoreIfExists() {
			return &pb.CreateDatabaseResponse{}, nil
		}
		return nil, serverError{codeDatabaseExists, fmt.Sprintf("Database %s already exists.", name)}
	}
	c.dbs[name] = now()
	return &pb.CreateDatabaseResponse{}, nil
}

func (c *Cluster) dropDatabase(_ int32, req *pb.DropDatabaseRequest) (proto.Message, error) {
	name := req.GetDatabaseName()
	if _, ok := c.dbs[name]; !ok {
		if req.GetIgnoreIfNotExists() {
			return &pb.DropDatabaseResponse{}, nil
		}
		return nil, serverError{codeDatabaseNotExist, fmt.Sprintf("Database %s does not exist.", name)}
	}
	tables := c.tableNames(name)
	if len(tables) > 0 && !req.GetCascade() {
		return nil, serverError{codeDatabaseNotEmpty, fmt.Sprintf("Database %s is not empty.", name)}
	}
	for _, t := range tables {
		delete(c.tables, schema.TablePath{Database: name, Table: t})
	}
	delete(c.dbs, name)
	return &pb.DropDatabaseResponse{}, nil
}

func (c *Cluster) listDatabases(int32, *pb.ListDatabasesRequest) (proto.Message, error) {
	resp := &pb.ListDatabasesResponse{}
	for name := range c.dbs {
		resp.DatabaseName = append(resp.DatabaseName, name)
	}
	slices.Sort(resp.DatabaseName)
	return resp, nil
}

func (c *Cluster) databaseExists(_ int32, req *pb.DatabaseExistsRequest) (proto.Message, error) {
	_, ok := c.dbs[req.GetDatabaseName()]
	return &pb.DatabaseExistsResponse{Exists: proto.Bool(ok)}, nil
}

func (c *Cluster) databaseInfo(_ int32, req *pb.GetDatabaseInfoRequest) (proto.Message, error) {
	created, err := c.database(req.GetDatabaseName())
	if err != nil {
		return nil, err
	}
	return &pb.GetDatabaseInfoResponse{
		DatabaseJson: []byte(`{"version":1}`), CreatedTime: proto.Int64(created), ModifiedTime: proto.Int64(created),
	}, nil
}

func (c *Cluster) database(name string) (int64, error) {
	created, ok := c.dbs[name]
	if !ok {
		return 0, serverError{codeDatabaseNotExist, fmt.Sprintf("Database %s does not exist.", name)}
	}
	return created, nil
}

func (c *Cluster) createTableReq(_ int32, req *pb.CreateTableRequest) (proto.Message, error) {
	path := tablePath(req.GetTablePath())
	if _, err := c.database(path.Database); err != nil {
		return nil, err
	}
	var desc schema.TableDescriptor
	if err := desc.UnmarshalJSON(req.GetTableJson()); err != nil {
		return nil, serverError{codeInvalidTable, "fakefluss: bad table json: " + err.Error()}
	}
	if _, err := c.createTable(path, desc, req.GetIgnoreIfExists()); err != nil {
		return nil, err
	}
	return &pb.CreateTableResponse{}, nil
}

// createTable adds a table, filling in what the server decides itself
// (the bucket count).
func (c *Cluster) createTable(path schema.TablePath, desc schema.TableDescriptor, ignoreExisting bool) (*table, error) {
	if t, ok := c.tables[path]; ok {
		if ignoreExisting {
			return t, nil
		}
		return nil, serverError{codeTableExists, fmt.Sprintf("Table %s already exists.", path)}
	}
	if desc.IsPartitioned() {
		return nil, serverError{codeInvalidTable, "fakefluss: partitioned tables are not modelled"}
	}
	if desc.BucketCount == nil {
		n := c.cfg.DefaultBuckets
		desc.BucketCount = &n
	}
	js, err := desc.MarshalJSON()
	if err != nil {
		return nil, serverError{codeInvalidTable, err.Error()}
	}
	sj, err := desc.Schema.MarshalJSON()
	if err != nil {
		return nil, serverError{codeInvalidTable, err.Error()}
	}
	t := &table{id: c.nextID, path: path, desc: desc, json: js, schemaJSON: sj, created: now()}
	c.nextID++
	for range *desc.BucketCount {
		t.buckets = append(t.buckets, &bucket{kv: map[string][]byte{}})
	}
	c.tables[path] = t
	return t, nil
}

func (c *Cluster) dropTable(_ int32, req *pb.DropTableRequest) (proto.Message, error) {
	path := tablePath(req.GetTablePath())
	if _, ok := c.tables[path]; !ok && !req.GetIgnoreIfNotExists() {
		return nil, serverError{codeTableNotExist, fmt.Sprintf("Table %s does not exist.", path)}
	}
	delete(c.tables, path)
	return &pb.DropTableResponse{}, nil
}

func (c *Cluster) tableInfo(_ int32, req *pb.GetTableInfoRequest) (proto.Message, error) {
	t, err := c.table(req.GetTablePath())
	if err != nil {
		return nil, err
	}
	return &pb.GetTableInfoResponse{
		TableId: proto.Int64(t.id), SchemaId: proto.Int32(1), TableJson: t.json,
		CreatedTime: proto.Int64(t.created), ModifiedTime: proto.Int64(t.created),
	}, nil
}

func (c *Cluster) listTables(_ int32, req *pb.ListTablesRequest) (proto.Message, error) {
	if _, err := c.database(req.GetDatabaseName()); err != nil {
		return nil, err
	}
	return &pb.ListTablesResponse{TableName: c.tableNames(req.GetDatabaseName())}, nil
}

func (c *Cluster) tableNames(db string) []string {
	var names []string
	for p := range c.tables {
		if p.Database == db {
			names = append(names, p.Table)
		}
	}
	slices.Sort(names)
	return names
}

func (c *Cluster) tableExists(_ int32, req *pb.TableExistsRequest) (proto.Message, error) {
	_, ok := c.tables[tablePath(req.GetTablePath())]
	return &pb.TableExistsResponse{Exists: proto.Bool(ok)}, nil
}

func (c *Cluster) tableSchema(_ int32, req *pb.GetTableSchemaRequest) (proto.Message, error) {
	t, err := c.table(req.GetTablePath())
	if err != nil {
		return nil, err
	}
	if req.SchemaId != nil && req.GetSchemaId() != 1 {
		return nil, serverError{codeSchemaNotExist, fmt.Sprintf("Schema %d of %s does not exist.", req.GetSchemaId(), t.path)}
	}
	return &pb.GetTableSchemaResponse{SchemaId: proto.Int32(1), SchemaJson: t.schemaJSON}, nil
}

func tablePath(p *pb.PbTablePath) schema.TablePath {
	return schema.TablePath{Database: p.GetDatabaseName(), Table: p.GetTableName()}
}

func (c *Cluster) table(p *pb.PbTablePath) (*table, error) {
	path := tablePath(p)
	t, ok := c.tables[path]
	if !ok {
		return nil, serverError{codeTableNotExist, fmt.Sprintf("Table '%s' does not exist.", path)}
	}
	return t, nil
}

// tableByID finds a table by id, as data requests name them.
func (c *Cluster) tableByID(id int64) (*table, error) {
	for _, t := range c.tables {
		if t.id == id {
			return t, nil
		}
	}
	return nil, serverError{codeUnknownBucket, fmt.Sprintf("fakefluss: no table with id %d", id)}
}
