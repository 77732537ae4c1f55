package fakefluss

import (
	"maps"
	"slices"
	"strconv"
)

// APIKey is the api key of a request frame, as the server numbers its
// RPCs. The fake keeps its own table, as a server does; flussrpc's tests
// check that both agree.
type APIKey int16

// The API keys the fake knows.
const (
	APIVersions     APIKey = 1000
	CreateDatabase  APIKey = 1001
	DropDatabase    APIKey = 1002
	ListDatabases   APIKey = 1003
	DatabaseExists  APIKey = 1004
	CreateTable     APIKey = 1005
	DropTable       APIKey = 1006
	GetTableInfo    APIKey = 1007
	ListTables      APIKey = 1008
	TableExists     APIKey = 1010
	GetTableSchema  APIKey = 1011
	GetMetadata     APIKey = 1012
	ProduceLog      APIKey = 1014
	FetchLog        APIKey = 1015
	PutKV           APIKey = 1016
	Lookup          APIKey = 1017
	ListOffsets     APIKey = 1021
	InitWriter      APIKey = 1026
	LimitScan       APIKey = 1033
	PrefixLookup    APIKey = 1034
	GetDatabaseInfo APIKey = 1035
	Authenticate    APIKey = 1038
	DescribeConfigs APIKey = 1045
	GetTableStats   APIKey = 1059
	ScanKV          APIKey = 1061
)

var apiNames = map[APIKey]string{
	APIVersions: "API_VERSIONS", CreateDatabase: "CREATE_DATABASE", DropDatabase: "DROP_DATABASE",
	ListDatabases: "LIST_DATABASES", DatabaseExists: "DATABASE_EXISTS", CreateTable: "CREATE_TABLE",
	DropTable: "DROP_TABLE", GetTableInfo: "GET_TABLE_INFO", ListTables: "LIST_TABLES",
	TableExists: "TABLE_EXISTS", GetTableSchema: "GET_TABLE_SCHEMA", GetMetadata: "GET_METADATA",
	ProduceLog: "PRODUCE_LOG", FetchLog: "FETCH_LOG", PutKV: "PUT_KV", Lookup: "LOOKUP",
	ListOffsets: "LIST_OFFSETS", InitWriter: "INIT_WRITER", LimitScan: "LIMIT_SCAN",
	PrefixLookup: "PREFIX_LOOKUP", GetDatabaseInfo: "GET_DATABASE_INFO", Authenticate: "AUTHENTICATE",
	DescribeConfigs: "DESCRIBE_CLUSTER_CONFIGS", GetTableStats: "GET_TABLE_STATS", ScanKV: "SCAN_KV",
}

// String returns the protocol name of the API, or "APIKey(n)".
func (k APIKey) String() string {
	if n, ok := apiNames[k]; ok {
		return n
	}
	return "APIKey(" + strconv.Itoa(int(k)) + ")"
}

// APIs returns every API key the fake knows, ascending.
func APIs() []APIKey { return slices.Sorted(maps.Keys(apiNames)) }
