package flussrpc

import "strconv"

// APIKey identifies a Fluss RPC. It is the int16 carried in every request
// frame header; the server echoes nothing of it, so the client has to
// remember which API a request id belongs to.
type APIKey int16

// API keys of the RPCs this client speaks. The ids are fixed by the Fluss
// server; keys 0-999 are reserved for its Kafka-compatible listener.
const (
	APIKeyAPIVersions                APIKey = 1000 // negotiate versions on a new connection
	APIKeyCreateDatabase             APIKey = 1001 // coordinator only
	APIKeyDropDatabase               APIKey = 1002 // coordinator only
	APIKeyListDatabases              APIKey = 1003
	APIKeyDatabaseExists             APIKey = 1004
	APIKeyCreateTable                APIKey = 1005 // coordinator only
	APIKeyDropTable                  APIKey = 1006 // coordinator only
	APIKeyGetTableInfo               APIKey = 1007
	APIKeyListTables                 APIKey = 1008
	APIKeyListPartitionInfos         APIKey = 1009
	APIKeyTableExists                APIKey = 1010
	APIKeyGetTableSchema             APIKey = 1011
	APIKeyGetMetadata                APIKey = 1012
	APIKeyProduceLog                 APIKey = 1014 // bucket leader (tablet server)
	APIKeyFetchLog                   APIKey = 1015 // bucket leader (tablet server)
	APIKeyPutKV                      APIKey = 1016 // bucket leader (tablet server)
	APIKeyLookup                     APIKey = 1017 // bucket leader (tablet server)
	APIKeyListOffsets                APIKey = 1021 // bucket leader (tablet server)
	APIKeyGetLatestKVSnapshots       APIKey = 1023
	APIKeyGetKVSnapshotMetadata      APIKey = 1024
	APIKeyGetFileSystemSecurityToken APIKey = 1025
	APIKeyInitWriter                 APIKey = 1026 // any tablet server
	APIKeyGetLakeSnapshot            APIKey = 1032
	APIKeyLimitScan                  APIKey = 1033 // bucket leader (tablet server)
	APIKeyPrefixLookup               APIKey = 1034 // bucket leader (tablet server)
	APIKeyGetDatabaseInfo            APIKey = 1035
	APIKeyCreatePartition            APIKey = 1036 // coordinator only
	APIKeyDropPartition              APIKey = 1037 // coordinator only
	APIKeyAuthenticate               APIKey = 1038 // SASL exchange on a new connection
	APIKeyCreateACLs                 APIKey = 1039 // coordinator only
	APIKeyListACLs                   APIKey = 1040
	APIKeyDropACLs                   APIKey = 1041 // coordinator only
	APIKeyAlterTable                 APIKey = 1044 // coordinator only
	APIKeyDescribeClusterConfigs     APIKey = 1045
	APIKeyAlterClusterConfigs        APIKey = 1046 // coordinator only
	APIKeyAddServerTag               APIKey = 1047 // coordinator only
	APIKeyRemoveServerTag            APIKey = 1048 // coordinator only
	APIKeyRebalance                  APIKey = 1049 // coordinator only
	APIKeyListRebalanceProgress      APIKey = 1050 // coordinator only
	APIKeyCancelRebalance            APIKey = 1051 // coordinator only
	APIKeyAcquireKVSnapshotLease     APIKey = 1056 // coordinator only
	APIKeyDropKVSnapshotLease        APIKey = 1058 // coordinator only
	APIKeyGetTableStats              APIKey = 1059 // bucket leader (tablet server)
	APIKeyAlterDatabase              APIKey = 1060 // Fluss 1.x, coordinator only
	APIKeyScanKV                     APIKey = 1061 // Fluss 1.x, bucket leader
)

// apiInfo is what the client knows about one API: its protocol name and the
// version range this client can speak.
type apiInfo struct {
	name       string
	minVersion int16
	maxVersion int16
}

// clientAPIs lists every API the client may send. PUT_KV, LOOKUP and
// PREFIX_LOOKUP stop at v1: v1 tells the server we encode keys with the
// kv-format-version-2 rules (which our key encoder implements). PUT_KV v2
// would additionally promise that we handle STORAGE_BACKPRESSURE (72) as a
// back-off signal; the writer does not do that yet, and at v1 the server
// downgrades 72 to the retriable KV_STORAGE_EXCEPTION (11) for us.
var clientAPIs = map[APIKey]apiInfo{
	APIKeyAPIVersions:                {"API_VERSIONS", 0, 0},
	APIKeyCreateDatabase:             {"CREATE_DATABASE", 0, 0},
	APIKeyDropDatabase:               {"DROP_DATABASE", 0, 0},
	APIKeyListDatabases:              {"LIST_DATABASES", 0, 0},
	APIKeyDatabaseExists:             {"DATABASE_EXISTS", 0, 0},
	APIKeyCreateTable:                {"CREATE_TABLE", 0, 0},
	APIKeyDropTable:                  {"DROP_TABLE", 0, 0},
	APIKeyGetTableInfo:               {"GET_TABLE_INFO", 0, 0},
	APIKeyListTables:                 {"LIST_TABLES", 0, 0},
	APIKeyListPartitionInfos:         {"LIST_PARTITION_INFOS", 0, 0},
	APIKeyTableExists:                {"TABLE_EXISTS", 0, 0},
	APIKeyGetTableSchema:             {"GET_TABLE_SCHEMA", 0, 0},
	APIKeyGetMetadata:                {"GET_METADATA", 0, 0},
	APIKeyProduceLog:                 {"PRODUCE_LOG", 0, 0},
	APIKeyFetchLog:                   {"FETCH_LOG", 0, 0},
	APIKeyPutKV:                      {"PUT_KV", 0, 1},
	APIKeyLookup:                     {"LOOKUP", 0, 1},
	APIKeyListOffsets:                {"LIST_OFFSETS", 0, 0},
	APIKeyGetLatestKVSnapshots:       {"GET_LATEST_KV_SNAPSHOTS", 0, 0},
	APIKeyGetKVSnapshotMetadata:      {"GET_KV_SNAPSHOT_METADATA", 0, 0},
	APIKeyGetFileSystemSecurityToken: {"GET_FILESYSTEM_SECURITY_TOKEN", 0, 0},
	APIKeyInitWriter:                 {"INIT_WRITER", 0, 0},
	APIKeyGetLakeSnapshot:            {"GET_LAKE_SNAPSHOT", 0, 0},
	APIKeyLimitScan:                  {"LIMIT_SCAN", 0, 0},
	APIKeyPrefixLookup:               {"PREFIX_LOOKUP", 0, 1},
	APIKeyGetDatabaseInfo:            {"GET_DATABASE_INFO", 0, 0},
	APIKeyCreatePartition:            {"CREATE_PARTITION", 0, 0},
	APIKeyDropPartition:              {"DROP_PARTITION", 0, 0},
	APIKeyAuthenticate:               {"AUTHENTICATE", 0, 0},
	APIKeyCreateACLs:                 {"CREATE_ACLS", 0, 0},
	APIKeyListACLs:                   {"LIST_ACLS", 0, 0},
	APIKeyDropACLs:                   {"DROP_ACLS", 0, 0},
	APIKeyAlterTable:                 {"ALTER_TABLE", 0, 0},
	APIKeyDescribeClusterConfigs:     {"DESCRIBE_CLUSTER_CONFIGS", 0, 0},
	APIKeyAlterClusterConfigs:        {"ALTER_CLUSTER_CONFIGS", 0, 0},
	APIKeyAddServerTag:               {"ADD_SERVER_TAG", 0, 0},
	APIKeyRemoveServerTag:            {"REMOVE_SERVER_TAG", 0, 0},
	APIKeyRebalance:                  {"REBALANCE", 0, 0},
	APIKeyListRebalanceProgress:      {"LIST_REBALANCE_PROGRESS", 0, 0},
	APIKeyCancelRebalance:            {"CANCEL_REBALANCE", 0, 0},
	APIKeyAcquireKVSnapshotLease:     {"ACQUIRE_KV_SNAPSHOT_LEASE", 0, 0},
	APIKeyDropKVSnapshotLease:        {"DROP_KV_SNAPSHOT_LEASE", 0, 0},
	APIKeyGetTableStats:              {"GET_TABLE_STATS", 0, 0},
	APIKeyAlterDatabase:              {"ALTER_DATABASE", 0, 0},
	APIKeyScanKV:                     {"SCAN_KV", 0, 0},
}

// String returns the protocol name of the API (e.g. "GET_METADATA"), or
// "APIKey(n)" for a key this client does not know.
func (k APIKey) String() string {
	if info, ok := clientAPIs[k]; ok {
		return info.name
	}
	return "APIKey(" + strconv.Itoa(int(k)) + ")"
}

// ClientVersions reports the [min, max] request versions this client can
// send for the API; ok is false for an API the client does not implement.
func (k APIKey) ClientVersions() (minVersion, maxVersion int16, ok bool) {
	info, ok := clientAPIs[k]
	return info.minVersion, info.maxVersion, ok
}

// negotiateVersion picks the version to send given the server's advertised
// range: the highest version both sides support, as the Java client does.
// ok is false when the ranges do not overlap or the client lacks the API.
func negotiateVersion(k APIKey, serverMin, serverMax int32) (int16, bool) {
	info, known := clientAPIs[k]
	if !known {
		return 0, false
	}
	lo := max(int32(info.minVersion), serverMin)
	hi := min(int32(info.maxVersion), serverMax)
	if lo > hi {
		return 0, false
	}
	return int16(hi), true
}
