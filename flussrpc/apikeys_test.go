package flussrpc

import "testing"

func TestAPIKeyIDs(t *testing.T) {
	// Ids fixed by the server's API registry.
	tests := []struct {
		key  APIKey
		id   int16
		name string
	}{
		{APIKeyAPIVersions, 1000, "API_VERSIONS"},
		{APIKeyGetTableInfo, 1007, "GET_TABLE_INFO"},
		{APIKeyListPartitionInfos, 1009, "LIST_PARTITION_INFOS"},
		{APIKeyGetMetadata, 1012, "GET_METADATA"},
		{APIKeyProduceLog, 1014, "PRODUCE_LOG"},
		{APIKeyPutKV, 1016, "PUT_KV"},
		{APIKeyListOffsets, 1021, "LIST_OFFSETS"},
		{APIKeyGetFileSystemSecurityToken, 1025, "GET_FILESYSTEM_SECURITY_TOKEN"},
		{APIKeyGetLakeSnapshot, 1032, "GET_LAKE_SNAPSHOT"},
		{APIKeyPrefixLookup, 1034, "PREFIX_LOOKUP"},
		{APIKeyAuthenticate, 1038, "AUTHENTICATE"},
		{APIKeyAlterTable, 1044, "ALTER_TABLE"},
		{APIKeyCreateACLs, 1039, "CREATE_ACLS"},
		{APIKeyDropACLs, 1041, "DROP_ACLS"},
		{APIKeyDescribeClusterConfigs, 1045, "DESCRIBE_CLUSTER_CONFIGS"},
		{APIKeyAlterClusterConfigs, 1046, "ALTER_CLUSTER_CONFIGS"},
		{APIKeyCancelRebalance, 1051, "CANCEL_REBALANCE"},
		{APIKeyDropKVSnapshotLease, 1058, "DROP_KV_SNAPSHOT_LEASE"},
		{APIKeyGetTableStats, 1059, "GET_TABLE_STATS"},
		{APIKeyAlterDatabase, 1060, "ALTER_DATABASE"},
		{APIKeyScanKV, 1061, "SCAN_KV"},
	}
	for _, tt := range tests {
		if int16(tt.key) != tt.id || tt.key.String() != tt.name {
			t.Errorf("%s = %d, want %s = %d", tt.key, int16(tt.key), tt.name, tt.id)
		}
	}
	if got := APIKey(1013).String(); got != "APIKey(1013)" {
		t.Errorf("private API string = %q", got)
	}
	if len(clientAPIs) != 45 {
		t.Errorf("%d client APIs, want 45", len(clientAPIs))
	}
}

func TestNegotiateVersion(t *testing.T) {
	tests := []struct {
		key      APIKey
		min, max int32
		want     int16
		ok       bool
	}{
		{APIKeyGetMetadata, 0, 0, 0, true},
		{APIKeyPutKV, 0, 1, 1, true},        // 0.9.1 server
		{APIKeyPutKV, 0, 2, 1, true},        // 1.x server offers 2; we stay at 1
		{APIKeyLookup, 0, 0, 0, true},       // older server
		{APIKeyGetMetadata, 1, 3, 0, false}, // server dropped v0
		{APIKey(1013), 0, 0, 0, false},      // not a client API
	}
	for _, tt := range tests {
		got, ok := negotiateVersion(tt.key, tt.min, tt.max)
		if got != tt.want || ok != tt.ok {
			t.Errorf("negotiate(%s, %d-%d) = %d,%v want %d,%v", tt.key, tt.min, tt.max, got, ok, tt.want, tt.ok)
		}
	}
	if lo, hi, ok := APIKeyPrefixLookup.ClientVersions(); lo != 0 || hi != 1 || !ok {
		t.Errorf("PREFIX_LOOKUP client versions %d-%d", lo, hi)
	}
}
