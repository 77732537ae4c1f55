package flussrpc

// Code constants and sentinels of the Fluss error table. The numeric codes,
// names and retriability follow the server's error registry (1.x; codes
// 64-73 only exist on 1.x servers). Retriable means the server-side
// exception is a retriable one; InvalidMetadata means it also says the
// client's routing is stale.

// Fluss error codes.
const (
	// CodeNone is the absence of an error.
	CodeNone ErrorCode = 0
	// CodeUnknownServerError (UNKNOWN_SERVER_ERROR): the server hit an unexpected error.
	CodeUnknownServerError ErrorCode = -1
	// CodeNetwork (NETWORK_EXCEPTION): the connection broke before a response arrived.
	CodeNetwork ErrorCode = 1
	// CodeUnsupportedVersion (UNSUPPORTED_VERSION): the server does not support this API version.
	CodeUnsupportedVersion ErrorCode = 2
	// CodeCorruptMessage (CORRUPT_MESSAGE): the request was corrupt (bad CRC, size or content).
	CodeCorruptMessage ErrorCode = 3
	// CodeDatabaseNotExist (DATABASE_NOT_EXIST): the database does not exist.
	CodeDatabaseNotExist ErrorCode = 4
	// CodeDatabaseNotEmpty (DATABASE_NOT_EMPTY): the database still contains tables.
	CodeDatabaseNotEmpty ErrorCode = 5
	// CodeDatabaseAlreadyExist (DATABASE_ALREADY_EXIST): the database already exists.
	CodeDatabaseAlreadyExist ErrorCode = 6
	// CodeTableNotExist (TABLE_NOT_EXIST): the table does not exist.
	CodeTableNotExist ErrorCode = 7
	// CodeTableAlreadyExist (TABLE_ALREADY_EXIST): the table already exists.
	CodeTableAlreadyExist ErrorCode = 8
	// CodeSchemaNotExist (SCHEMA_NOT_EXIST): the schema id is unknown to the server.
	CodeSchemaNotExist ErrorCode = 9
	// CodeLogStorage (LOG_STORAGE_EXCEPTION): the server failed to store log data.
	CodeLogStorage ErrorCode = 10
	// CodeKVStorage (KV_STORAGE_EXCEPTION): the server failed to store key-value data.
	CodeKVStorage ErrorCode = 11
	// CodeNotLeaderOrFollower (NOT_LEADER_OR_FOLLOWER): the server is not a replica leader for the bucket.
	CodeNotLeaderOrFollower ErrorCode = 12
	// CodeRecordTooLarge (RECORD_TOO_LARGE_EXCEPTION): a record exceeds the size limit.
	CodeRecordTooLarge ErrorCode = 13
	// CodeCorruptRecord (CORRUPT_RECORD_EXCEPTION): a record failed validation.
	CodeCorruptRecord ErrorCode = 14
	// CodeInvalidTable (INVALID_TABLE_EXCEPTION): the table name or definition is invalid.
	CodeInvalidTable ErrorCode = 15
	// CodeInvalidDatabase (INVALID_DATABASE_EXCEPTION): the database name is invalid.
	CodeInvalidDatabase ErrorCode = 16
	// CodeInvalidReplicationFactor (INVALID_REPLICATION_FACTOR): the replication factor exceeds the available tablet servers.
	CodeInvalidReplicationFactor ErrorCode = 17
	// CodeInvalidRequiredAcks (INVALID_REQUIRED_ACKS): acks must be -1, 0 or 1.
	CodeInvalidRequiredAcks ErrorCode = 18
	// CodeLogOffsetOutOfRange (LOG_OFFSET_OUT_OF_RANGE_EXCEPTION): the offset lies outside the log.
	CodeLogOffsetOutOfRange ErrorCode = 19
	// CodeNonPrimaryKeyTable (NON_PRIMARY_KEY_TABLE_EXCEPTION): the operation needs a primary-key table.
	CodeNonPrimaryKeyTable ErrorCode = 20
	// CodeUnknownTableOrBucket (UNKNOWN_TABLE_OR_BUCKET_EXCEPTION): the server does not host this table or bucket.
	CodeUnknownTableOrBucket ErrorCode = 21
	// CodeInvalidUpdateVersion (INVALID_UPDATE_VERSION_EXCEPTION): the update version is invalid.
	CodeInvalidUpdateVersion ErrorCode = 22
	// CodeInvalidCoordinator (INVALID_COORDINATOR_EXCEPTION): the coordinator is invalid.
	CodeInvalidCoordinator ErrorCode = 23
	// CodeFencedLeaderEpoch (FENCED_LEADER_EPOCH_EXCEPTION): the leader epoch is stale.
	CodeFencedLeaderEpoch ErrorCode = 24
	// CodeRequestTimeOut (REQUEST_TIME_OUT): the server timed out handling the request.
	CodeRequestTimeOut ErrorCode = 25
	// CodeStorage (STORAGE_EXCEPTION): the server hit a storage error.
	CodeStorage ErrorCode = 26
	// CodeOperationNotAttempted (OPERATION_NOT_ATTEMPTED_EXCEPTION): the server did not attempt the operation.
	CodeOperationNotAttempted ErrorCode = 27
	// CodeNotEnoughReplicasAfterAppend (NOT_ENOUGH_REPLICAS_AFTER_APPEND_EXCEPTION): data was written but too few replicas are in sync.
	CodeNotEnoughReplicasAfterAppend ErrorCode = 28
	// CodeNotEnoughReplicas (NOT_ENOUGH_REPLICAS_EXCEPTION): too few replicas are in sync to accept the write.
	CodeNotEnoughReplicas ErrorCode = 29
	// CodeSecurityToken (SECURITY_TOKEN_EXCEPTION): the server could not issue a file-system security token.
	CodeSecurityToken ErrorCode = 30
	// CodeOutOfOrderSequence (OUT_OF_ORDER_SEQUENCE_EXCEPTION): the batch sequence has a gap.
	CodeOutOfOrderSequence ErrorCode = 31
	// CodeDuplicateSequence (DUPLICATE_SEQUENCE_EXCEPTION): the batch was already written.
	CodeDuplicateSequence ErrorCode = 32
	// CodeUnknownWriterID (UNKNOWN_WRITER_ID_EXCEPTION): the server has no state for this writer id.
	CodeUnknownWriterID ErrorCode = 33
	// CodeInvalidColumnProjection (INVALID_COLUMN_PROJECTION): the column projection is invalid.
	CodeInvalidColumnProjection ErrorCode = 34
	// CodeInvalidTargetColumn (INVALID_TARGET_COLUMN): the partial-update target columns are invalid.
	CodeInvalidTargetColumn ErrorCode = 35
	// CodePartitionNotExists (PARTITION_NOT_EXISTS): the partition does not exist.
	CodePartitionNotExists ErrorCode = 36
	// CodeTableNotPartitioned (TABLE_NOT_PARTITIONED_EXCEPTION): the table is not partitioned.
	CodeTableNotPartitioned ErrorCode = 37
	// CodeInvalidTimestamp (INVALID_TIMESTAMP_EXCEPTION): the timestamp is invalid.
	CodeInvalidTimestamp ErrorCode = 38
	// CodeInvalidConfig (INVALID_CONFIG_EXCEPTION): a configuration value is invalid.
	CodeInvalidConfig ErrorCode = 39
	// CodeLakeStorageNotConfigured (LAKE_STORAGE_NOT_CONFIGURED_EXCEPTION): no lake storage is configured.
	CodeLakeStorageNotConfigured ErrorCode = 40
	// CodeKVSnapshotNotExist (KV_SNAPSHOT_NOT_EXIST): the KV snapshot does not exist.
	CodeKVSnapshotNotExist ErrorCode = 41
	// CodePartitionAlreadyExists (PARTITION_ALREADY_EXISTS): the partition already exists.
	CodePartitionAlreadyExists ErrorCode = 42
	// CodePartitionSpecInvalid (PARTITION_SPEC_INVALID_EXCEPTION): the partition spec is invalid.
	CodePartitionSpecInvalid ErrorCode = 43
	// CodeLeaderNotAvailable (LEADER_NOT_AVAILABLE_EXCEPTION): the bucket has no leader right now.
	CodeLeaderNotAvailable ErrorCode = 44
	// CodePartitionMaxNum (PARTITION_MAX_NUM_EXCEPTION): the partition limit was reached.
	CodePartitionMaxNum ErrorCode = 45
	// CodeAuthenticate (AUTHENTICATE_EXCEPTION): authentication failed or is required.
	CodeAuthenticate ErrorCode = 46
	// CodeSecurityDisabled (SECURITY_DISABLED_EXCEPTION): security is disabled on the server.
	CodeSecurityDisabled ErrorCode = 47
	// CodeAuthorization (AUTHORIZATION_EXCEPTION): the principal is not authorized.
	CodeAuthorization ErrorCode = 48
	// CodeBucketMaxNum (BUCKET_MAX_NUM_EXCEPTION): the bucket limit was reached.
	CodeBucketMaxNum ErrorCode = 49
	// CodeFencedTieringEpoch (FENCED_TIERING_EPOCH_EXCEPTION): the tiering epoch is stale.
	CodeFencedTieringEpoch ErrorCode = 50
	// CodeRetriableAuthenticate (RETRIABLE_AUTHENTICATE_EXCEPTION): authentication failed transiently; resend the token later.
	CodeRetriableAuthenticate ErrorCode = 51
	// CodeInvalidServerRackInfo (INVALID_SERVER_RACK_INFO_EXCEPTION): the server rack information is invalid.
	CodeInvalidServerRackInfo ErrorCode = 52
	// CodeLakeSnapshotNotExist (LAKE_SNAPSHOT_NOT_EXIST): the lake snapshot does not exist.
	CodeLakeSnapshotNotExist ErrorCode = 53
	// CodeLakeTableAlreadyExist (LAKE_TABLE_ALREADY_EXIST): the lake table already exists.
	CodeLakeTableAlreadyExist ErrorCode = 54
	// CodeIneligibleReplica (INELIGIBLE_REPLICA_EXCEPTION): the replica is not eligible.
	CodeIneligibleReplica ErrorCode = 55
	// CodeInvalidAlterTable (INVALID_ALTER_TABLE_EXCEPTION): the table alteration is invalid.
	CodeInvalidAlterTable ErrorCode = 56
	// CodeDeletionDisabled (DELETION_DISABLED_EXCEPTION): deletes are disabled for this table.
	CodeDeletionDisabled ErrorCode = 57
	// CodeServerNotExist (SERVER_NOT_EXIST_EXCEPTION): the server does not exist.
	CodeServerNotExist ErrorCode = 58
	// CodeServerTagAlreadyExist (SEVER_TAG_ALREADY_EXIST_EXCEPTION): the server tag already exists.
	CodeServerTagAlreadyExist ErrorCode = 59
	// CodeServerTagNotExist (SEVER_TAG_NOT_EXIST_EXCEPTION): the server tag does not exist.
	CodeServerTagNotExist ErrorCode = 60
	// CodeRebalanceFailure (REBALANCE_FAILURE_EXCEPTION): the rebalance failed.
	CodeRebalanceFailure ErrorCode = 61
	// CodeNoRebalanceInProgress (NO_REBALANCE_IN_PROGRESS_EXCEPTION): no rebalance is in progress.
	CodeNoRebalanceInProgress ErrorCode = 62
	// CodeInvalidProducerID (INVALID_PRODUCER_ID_EXCEPTION): the producer id is invalid.
	CodeInvalidProducerID ErrorCode = 63
	// CodeConfig (CONFIG_EXCEPTION): a configuration error occurred.
	CodeConfig ErrorCode = 64
	// CodeNotCoordinatorLeader (NOT_COORDINATOR_LEADER_EXCEPTION): this coordinator is not the leader; refresh and resend.
	CodeNotCoordinatorLeader ErrorCode = 65
	// CodeScannerExpired (SCANNER_EXPIRED): the KV scanner expired after being idle.
	CodeScannerExpired ErrorCode = 66
	// CodeUnknownScannerID (UNKNOWN_SCANNER_ID): the KV scanner id is unknown.
	CodeUnknownScannerID ErrorCode = 67
	// CodeInvalidScanRequest (INVALID_SCAN_REQUEST): the KV scan request is invalid.
	CodeInvalidScanRequest ErrorCode = 68
	// CodeTooManyScanners (TOO_MANY_SCANNERS): too many KV scanners are open.
	CodeTooManyScanners ErrorCode = 69
	// CodeDiskWriteLocked (DISK_WRITE_LOCKED): writes are paused because disk usage is too high.
	CodeDiskWriteLocked ErrorCode = 70
	// CodeInsufficientKVLeaderReplicaCapacity (INSUFFICIENT_KV_LEADER_REPLICA_CAPACITY): not enough capacity for KV leader replicas.
	CodeInsufficientKVLeaderReplicaCapacity ErrorCode = 71
	// CodeStorageBackpressure (STORAGE_BACKPRESSURE_EXCEPTION): the KV store applies back-pressure; back off.
	CodeStorageBackpressure ErrorCode = 72
	// CodeHistoricalPartitionThrottled (HISTORICAL_PARTITION_THROTTLED): historical-partition lookups are throttled.
	CodeHistoricalPartitionThrottled ErrorCode = 73
)

// codeTable describes every known code; unknown codes fall back to the
// UNKNOWN_SERVER_ERROR entry.
var codeTable = map[ErrorCode]codeInfo{
	CodeNone:                                {name: "NONE", desc: "no error"},
	CodeUnknownServerError:                  {name: "UNKNOWN_SERVER_ERROR", desc: "the server hit an unexpected error"},
	CodeNetwork:                             {name: "NETWORK_EXCEPTION", desc: "the connection broke before a response arrived", retriable: true, invalidMetadata: true},
	CodeUnsupportedVersion:                  {name: "UNSUPPORTED_VERSION", desc: "the server does not support this API version"},
	CodeCorruptMessage:                      {name: "CORRUPT_MESSAGE", desc: "the request was corrupt (bad CRC, size or content)", retriable: true},
	CodeDatabaseNotExist:                    {name: "DATABASE_NOT_EXIST", desc: "the database does not exist"},
	CodeDatabaseNotEmpty:                    {name: "DATABASE_NOT_EMPTY", desc: "the database still contains tables"},
	CodeDatabaseAlreadyExist:                {name: "DATABASE_ALREADY_EXIST", desc: "the database already exists"},
	CodeTableNotExist:                       {name: "TABLE_NOT_EXIST", desc: "the table does not exist"},
	CodeTableAlreadyExist:                   {name: "TABLE_ALREADY_EXIST", desc: "the table already exists"},
	CodeSchemaNotExist:                      {name: "SCHEMA_NOT_EXIST", desc: "the schema id is unknown to the server", retriable: true},
	CodeLogStorage:                          {name: "LOG_STORAGE_EXCEPTION", desc: "the server failed to store log data", retriable: true},
	CodeKVStorage:                           {name: "KV_STORAGE_EXCEPTION", desc: "the server failed to store key-value data", retriable: true},
	CodeNotLeaderOrFollower:                 {name: "NOT_LEADER_OR_FOLLOWER", desc: "the server is not a replica leader for the bucket", retriable: true, invalidMetadata: true},
	CodeRecordTooLarge:                      {name: "RECORD_TOO_LARGE_EXCEPTION", desc: "a record exceeds the size limit"},
	CodeCorruptRecord:                       {name: "CORRUPT_RECORD_EXCEPTION", desc: "a record failed validation", retriable: true},
	CodeInvalidTable:                        {name: "INVALID_TABLE_EXCEPTION", desc: "the table name or definition is invalid"},
	CodeInvalidDatabase:                     {name: "INVALID_DATABASE_EXCEPTION", desc: "the database name is invalid"},
	CodeInvalidReplicationFactor:            {name: "INVALID_REPLICATION_FACTOR", desc: "the replication factor exceeds the available tablet servers"},
	CodeInvalidRequiredAcks:                 {name: "INVALID_REQUIRED_ACKS", desc: "acks must be -1, 0 or 1"},
	CodeLogOffsetOutOfRange:                 {name: "LOG_OFFSET_OUT_OF_RANGE_EXCEPTION", desc: "the offset lies outside the log"},
	CodeNonPrimaryKeyTable:                  {name: "NON_PRIMARY_KEY_TABLE_EXCEPTION", desc: "the operation needs a primary-key table"},
	CodeUnknownTableOrBucket:                {name: "UNKNOWN_TABLE_OR_BUCKET_EXCEPTION", desc: "the server does not host this table or bucket", retriable: true, invalidMetadata: true},
	CodeInvalidUpdateVersion:                {name: "INVALID_UPDATE_VERSION_EXCEPTION", desc: "the update version is invalid"},
	CodeInvalidCoordinator:                  {name: "INVALID_COORDINATOR_EXCEPTION", desc: "the coordinator is invalid"},
	CodeFencedLeaderEpoch:                   {name: "FENCED_LEADER_EPOCH_EXCEPTION", desc: "the leader epoch is stale"},
	CodeRequestTimeOut:                      {name: "REQUEST_TIME_OUT", desc: "the server timed out handling the request", retriable: true},
	CodeStorage:                             {name: "STORAGE_EXCEPTION", desc: "the server hit a storage error", retriable: true},
	CodeOperationNotAttempted:               {name: "OPERATION_NOT_ATTEMPTED_EXCEPTION", desc: "the server did not attempt the operation"},
	CodeNotEnoughReplicasAfterAppend:        {name: "NOT_ENOUGH_REPLICAS_AFTER_APPEND_EXCEPTION", desc: "data was written but too few replicas are in sync", retriable: true},
	CodeNotEnoughReplicas:                   {name: "NOT_ENOUGH_REPLICAS_EXCEPTION", desc: "too few replicas are in sync to accept the write", retriable: true},
	CodeSecurityToken:                       {name: "SECURITY_TOKEN_EXCEPTION", desc: "the server could not issue a file-system security token"},
	CodeOutOfOrderSequence:                  {name: "OUT_OF_ORDER_SEQUENCE_EXCEPTION", desc: "the batch sequence has a gap"},
	CodeDuplicateSequence:                   {name: "DUPLICATE_SEQUENCE_EXCEPTION", desc: "the batch was already written"},
	CodeUnknownWriterID:                     {name: "UNKNOWN_WRITER_ID_EXCEPTION", desc: "the server has no state for this writer id"},
	CodeInvalidColumnProjection:             {name: "INVALID_COLUMN_PROJECTION", desc: "the column projection is invalid"},
	CodeInvalidTargetColumn:                 {name: "INVALID_TARGET_COLUMN", desc: "the partial-update target columns are invalid"},
	CodePartitionNotExists:                  {name: "PARTITION_NOT_EXISTS", desc: "the partition does not exist"},
	CodeTableNotPartitioned:                 {name: "TABLE_NOT_PARTITIONED_EXCEPTION", desc: "the table is not partitioned"},
	CodeInvalidTimestamp:                    {name: "INVALID_TIMESTAMP_EXCEPTION", desc: "the timestamp is invalid"},
	CodeInvalidConfig:                       {name: "INVALID_CONFIG_EXCEPTION", desc: "a configuration value is invalid"},
	CodeLakeStorageNotConfigured:            {name: "LAKE_STORAGE_NOT_CONFIGURED_EXCEPTION", desc: "no lake storage is configured"},
	CodeKVSnapshotNotExist:                  {name: "KV_SNAPSHOT_NOT_EXIST", desc: "the KV snapshot does not exist"},
	CodePartitionAlreadyExists:              {name: "PARTITION_ALREADY_EXISTS", desc: "the partition already exists"},
	CodePartitionSpecInvalid:                {name: "PARTITION_SPEC_INVALID_EXCEPTION", desc: "the partition spec is invalid"},
	CodeLeaderNotAvailable:                  {name: "LEADER_NOT_AVAILABLE_EXCEPTION", desc: "the bucket has no leader right now", retriable: true, invalidMetadata: true},
	CodePartitionMaxNum:                     {name: "PARTITION_MAX_NUM_EXCEPTION", desc: "the partition limit was reached"},
	CodeAuthenticate:                        {name: "AUTHENTICATE_EXCEPTION", desc: "authentication failed or is required"},
	CodeSecurityDisabled:                    {name: "SECURITY_DISABLED_EXCEPTION", desc: "security is disabled on the server"},
	CodeAuthorization:                       {name: "AUTHORIZATION_EXCEPTION", desc: "the principal is not authorized"},
	CodeBucketMaxNum:                        {name: "BUCKET_MAX_NUM_EXCEPTION", desc: "the bucket limit was reached"},
	CodeFencedTieringEpoch:                  {name: "FENCED_TIERING_EPOCH_EXCEPTION", desc: "the tiering epoch is stale"},
	CodeRetriableAuthenticate:               {name: "RETRIABLE_AUTHENTICATE_EXCEPTION", desc: "authentication failed transiently; resend the token later"},
	CodeInvalidServerRackInfo:               {name: "INVALID_SERVER_RACK_INFO_EXCEPTION", desc: "the server rack information is invalid"},
	CodeLakeSnapshotNotExist:                {name: "LAKE_SNAPSHOT_NOT_EXIST", desc: "the lake snapshot does not exist"},
	CodeLakeTableAlreadyExist:               {name: "LAKE_TABLE_ALREADY_EXIST", desc: "the lake table already exists"},
	CodeIneligibleReplica:                   {name: "INELIGIBLE_REPLICA_EXCEPTION", desc: "the replica is not eligible"},
	CodeInvalidAlterTable:                   {name: "INVALID_ALTER_TABLE_EXCEPTION", desc: "the table alteration is invalid"},
	CodeDeletionDisabled:                    {name: "DELETION_DISABLED_EXCEPTION", desc: "deletes are disabled for this table"},
	CodeServerNotExist:                      {name: "SERVER_NOT_EXIST_EXCEPTION", desc: "the server does not exist"},
	CodeServerTagAlreadyExist:               {name: "SEVER_TAG_ALREADY_EXIST_EXCEPTION", desc: "the server tag already exists"},
	CodeServerTagNotExist:                   {name: "SEVER_TAG_NOT_EXIST_EXCEPTION", desc: "the server tag does not exist"},
	CodeRebalanceFailure:                    {name: "REBALANCE_FAILURE_EXCEPTION", desc: "the rebalance failed"},
	CodeNoRebalanceInProgress:               {name: "NO_REBALANCE_IN_PROGRESS_EXCEPTION", desc: "no rebalance is in progress"},
	CodeInvalidProducerID:                   {name: "INVALID_PRODUCER_ID_EXCEPTION", desc: "the producer id is invalid"},
	CodeConfig:                              {name: "CONFIG_EXCEPTION", desc: "a configuration error occurred"},
	CodeNotCoordinatorLeader:                {name: "NOT_COORDINATOR_LEADER_EXCEPTION", desc: "this coordinator is not the leader; refresh and resend"},
	CodeScannerExpired:                      {name: "SCANNER_EXPIRED", desc: "the KV scanner expired after being idle"},
	CodeUnknownScannerID:                    {name: "UNKNOWN_SCANNER_ID", desc: "the KV scanner id is unknown"},
	CodeInvalidScanRequest:                  {name: "INVALID_SCAN_REQUEST", desc: "the KV scan request is invalid"},
	CodeTooManyScanners:                     {name: "TOO_MANY_SCANNERS", desc: "too many KV scanners are open"},
	CodeDiskWriteLocked:                     {name: "DISK_WRITE_LOCKED", desc: "writes are paused because disk usage is too high", retriable: true},
	CodeInsufficientKVLeaderReplicaCapacity: {name: "INSUFFICIENT_KV_LEADER_REPLICA_CAPACITY", desc: "not enough capacity for KV leader replicas"},
	CodeStorageBackpressure:                 {name: "STORAGE_BACKPRESSURE_EXCEPTION", desc: "the KV store applies back-pressure; back off", retriable: true},
	CodeHistoricalPartitionThrottled:        {name: "HISTORICAL_PARTITION_THROTTLED", desc: "historical-partition lookups are throttled", retriable: true},
}

// Sentinel errors, one per code, for use with errors.Is. They match any
// *Error carrying the same code, whatever its message.
var (
	// ErrUnknownServerError matches UNKNOWN_SERVER_ERROR (-1).
	ErrUnknownServerError = sentinel(CodeUnknownServerError)
	// ErrNetwork matches NETWORK_EXCEPTION (1).
	ErrNetwork = sentinel(CodeNetwork)
	// ErrUnsupportedVersion matches UNSUPPORTED_VERSION (2).
	ErrUnsupportedVersion = sentinel(CodeUnsupportedVersion)
	// ErrCorruptMessage matches CORRUPT_MESSAGE (3).
	ErrCorruptMessage = sentinel(CodeCorruptMessage)
	// ErrDatabaseNotExist matches DATABASE_NOT_EXIST (4).
	ErrDatabaseNotExist = sentinel(CodeDatabaseNotExist)
	// ErrDatabaseNotEmpty matches DATABASE_NOT_EMPTY (5).
	ErrDatabaseNotEmpty = sentinel(CodeDatabaseNotEmpty)
	// ErrDatabaseAlreadyExist matches DATABASE_ALREADY_EXIST (6).
	ErrDatabaseAlreadyExist = sentinel(CodeDatabaseAlreadyExist)
	// ErrTableNotExist matches TABLE_NOT_EXIST (7).
	ErrTableNotExist = sentinel(CodeTableNotExist)
	// ErrTableAlreadyExist matches TABLE_ALREADY_EXIST (8).
	ErrTableAlreadyExist = sentinel(CodeTableAlreadyExist)
	// ErrSchemaNotExist matches SCHEMA_NOT_EXIST (9).
	ErrSchemaNotExist = sentinel(CodeSchemaNotExist)
	// ErrLogStorage matches LOG_STORAGE_EXCEPTION (10).
	ErrLogStorage = sentinel(CodeLogStorage)
	// ErrKVStorage matches KV_STORAGE_EXCEPTION (11).
	ErrKVStorage = sentinel(CodeKVStorage)
	// ErrNotLeaderOrFollower matches NOT_LEADER_OR_FOLLOWER (12).
	ErrNotLeaderOrFollower = sentinel(CodeNotLeaderOrFollower)
	// ErrRecordTooLarge matches RECORD_TOO_LARGE_EXCEPTION (13).
	ErrRecordTooLarge = sentinel(CodeRecordTooLarge)
	// ErrCorruptRecord matches CORRUPT_RECORD_EXCEPTION (14).
	ErrCorruptRecord = sentinel(CodeCorruptRecord)
	// ErrInvalidTable matches INVALID_TABLE_EXCEPTION (15).
	ErrInvalidTable = sentinel(CodeInvalidTable)
	// ErrInvalidDatabase matches INVALID_DATABASE_EXCEPTION (16).
	ErrInvalidDatabase = sentinel(CodeInvalidDatabase)
	// ErrInvalidReplicationFactor matches INVALID_REPLICATION_FACTOR (17).
	ErrInvalidReplicationFactor = sentinel(CodeInvalidReplicationFactor)
	// ErrInvalidRequiredAcks matches INVALID_REQUIRED_ACKS (18).
	ErrInvalidRequiredAcks = sentinel(CodeInvalidRequiredAcks)
	// ErrLogOffsetOutOfRange matches LOG_OFFSET_OUT_OF_RANGE_EXCEPTION (19).
	ErrLogOffsetOutOfRange = sentinel(CodeLogOffsetOutOfRange)
	// ErrNonPrimaryKeyTable matches NON_PRIMARY_KEY_TABLE_EXCEPTION (20).
	ErrNonPrimaryKeyTable = sentinel(CodeNonPrimaryKeyTable)
	// ErrUnknownTableOrBucket matches UNKNOWN_TABLE_OR_BUCKET_EXCEPTION (21).
	ErrUnknownTableOrBucket = sentinel(CodeUnknownTableOrBucket)
	// ErrInvalidUpdateVersion matches INVALID_UPDATE_VERSION_EXCEPTION (22).
	ErrInvalidUpdateVersion = sentinel(CodeInvalidUpdateVersion)
	// ErrInvalidCoordinator matches INVALID_COORDINATOR_EXCEPTION (23).
	ErrInvalidCoordinator = sentinel(CodeInvalidCoordinator)
	// ErrFencedLeaderEpoch matches FENCED_LEADER_EPOCH_EXCEPTION (24).
	ErrFencedLeaderEpoch = sentinel(CodeFencedLeaderEpoch)
	// ErrRequestTimeOut matches REQUEST_TIME_OUT (25).
	ErrRequestTimeOut = sentinel(CodeRequestTimeOut)
	// ErrStorage matches STORAGE_EXCEPTION (26).
	ErrStorage = sentinel(CodeStorage)
	// ErrOperationNotAttempted matches OPERATION_NOT_ATTEMPTED_EXCEPTION (27).
	ErrOperationNotAttempted = sentinel(CodeOperationNotAttempted)
	// ErrNotEnoughReplicasAfterAppend matches NOT_ENOUGH_REPLICAS_AFTER_APPEND_EXCEPTION (28).
	ErrNotEnoughReplicasAfterAppend = sentinel(CodeNotEnoughReplicasAfterAppend)
	// ErrNotEnoughReplicas matches NOT_ENOUGH_REPLICAS_EXCEPTION (29).
	ErrNotEnoughReplicas = sentinel(CodeNotEnoughReplicas)
	// ErrSecurityToken matches SECURITY_TOKEN_EXCEPTION (30).
	ErrSecurityToken = sentinel(CodeSecurityToken)
	// ErrOutOfOrderSequence matches OUT_OF_ORDER_SEQUENCE_EXCEPTION (31).
	ErrOutOfOrderSequence = sentinel(CodeOutOfOrderSequence)
	// ErrDuplicateSequence matches DUPLICATE_SEQUENCE_EXCEPTION (32).
	ErrDuplicateSequence = sentinel(CodeDuplicateSequence)
	// ErrUnknownWriterID matches UNKNOWN_WRITER_ID_EXCEPTION (33).
	ErrUnknownWriterID = sentinel(CodeUnknownWriterID)
	// ErrInvalidColumnProjection matches INVALID_COLUMN_PROJECTION (34).
	ErrInvalidColumnProjection = sentinel(CodeInvalidColumnProjection)
	// ErrInvalidTargetColumn matches INVALID_TARGET_COLUMN (35).
	ErrInvalidTargetColumn = sentinel(CodeInvalidTargetColumn)
	// ErrPartitionNotExists matches PARTITION_NOT_EXISTS (36).
	ErrPartitionNotExists = sentinel(CodePartitionNotExists)
	// ErrTableNotPartitioned matches TABLE_NOT_PARTITIONED_EXCEPTION (37).
	ErrTableNotPartitioned = sentinel(CodeTableNotPartitioned)
	// ErrInvalidTimestamp matches INVALID_TIMESTAMP_EXCEPTION (38).
	ErrInvalidTimestamp = sentinel(CodeInvalidTimestamp)
	// ErrInvalidConfig matches INVALID_CONFIG_EXCEPTION (39).
	ErrInvalidConfig = sentinel(CodeInvalidConfig)
	// ErrLakeStorageNotConfigured matches LAKE_STORAGE_NOT_CONFIGURED_EXCEPTION (40).
	ErrLakeStorageNotConfigured = sentinel(CodeLakeStorageNotConfigured)
	// ErrKVSnapshotNotExist matches KV_SNAPSHOT_NOT_EXIST (41).
	ErrKVSnapshotNotExist = sentinel(CodeKVSnapshotNotExist)
	// ErrPartitionAlreadyExists matches PARTITION_ALREADY_EXISTS (42).
	ErrPartitionAlreadyExists = sentinel(CodePartitionAlreadyExists)
	// ErrPartitionSpecInvalid matches PARTITION_SPEC_INVALID_EXCEPTION (43).
	ErrPartitionSpecInvalid = sentinel(CodePartitionSpecInvalid)
	// ErrLeaderNotAvailable matches LEADER_NOT_AVAILABLE_EXCEPTION (44).
	ErrLeaderNotAvailable = sentinel(CodeLeaderNotAvailable)
	// ErrPartitionMaxNum matches PARTITION_MAX_NUM_EXCEPTION (45).
	ErrPartitionMaxNum = sentinel(CodePartitionMaxNum)
	// ErrAuthenticate matches AUTHENTICATE_EXCEPTION (46).
	ErrAuthenticate = sentinel(CodeAuthenticate)
	// ErrSecurityDisabled matches SECURITY_DISABLED_EXCEPTION (47).
	ErrSecurityDisabled = sentinel(CodeSecurityDisabled)
	// ErrAuthorization matches AUTHORIZATION_EXCEPTION (48).
	ErrAuthorization = sentinel(CodeAuthorization)
	// ErrBucketMaxNum matches BUCKET_MAX_NUM_EXCEPTION (49).
	ErrBucketMaxNum = sentinel(CodeBucketMaxNum)
	// ErrFencedTieringEpoch matches FENCED_TIERING_EPOCH_EXCEPTION (50).
	ErrFencedTieringEpoch = sentinel(CodeFencedTieringEpoch)
	// ErrRetriableAuthenticate matches RETRIABLE_AUTHENTICATE_EXCEPTION (51).
	ErrRetriableAuthenticate = sentinel(CodeRetriableAuthenticate)
	// ErrInvalidServerRackInfo matches INVALID_SERVER_RACK_INFO_EXCEPTION (52).
	ErrInvalidServerRackInfo = sentinel(CodeInvalidServerRackInfo)
	// ErrLakeSnapshotNotExist matches LAKE_SNAPSHOT_NOT_EXIST (53).
	ErrLakeSnapshotNotExist = sentinel(CodeLakeSnapshotNotExist)
	// ErrLakeTableAlreadyExist matches LAKE_TABLE_ALREADY_EXIST (54).
	ErrLakeTableAlreadyExist = sentinel(CodeLakeTableAlreadyExist)
	// ErrIneligibleReplica matches INELIGIBLE_REPLICA_EXCEPTION (55).
	ErrIneligibleReplica = sentinel(CodeIneligibleReplica)
	// ErrInvalidAlterTable matches INVALID_ALTER_TABLE_EXCEPTION (56).
	ErrInvalidAlterTable = sentinel(CodeInvalidAlterTable)
	// ErrDeletionDisabled matches DELETION_DISABLED_EXCEPTION (57).
	ErrDeletionDisabled = sentinel(CodeDeletionDisabled)
	// ErrServerNotExist matches SERVER_NOT_EXIST_EXCEPTION (58).
	ErrServerNotExist = sentinel(CodeServerNotExist)
	// ErrServerTagAlreadyExist matches SEVER_TAG_ALREADY_EXIST_EXCEPTION (59).
	ErrServerTagAlreadyExist = sentinel(CodeServerTagAlreadyExist)
	// ErrServerTagNotExist matches SEVER_TAG_NOT_EXIST_EXCEPTION (60).
	ErrServerTagNotExist = sentinel(CodeServerTagNotExist)
	// ErrRebalanceFailure matches REBALANCE_FAILURE_EXCEPTION (61).
	ErrRebalanceFailure = sentinel(CodeRebalanceFailure)
	// ErrNoRebalanceInProgress matches NO_REBALANCE_IN_PROGRESS_EXCEPTION (62).
	ErrNoRebalanceInProgress = sentinel(CodeNoRebalanceInProgress)
	// ErrInvalidProducerID matches INVALID_PRODUCER_ID_EXCEPTION (63).
	ErrInvalidProducerID = sentinel(CodeInvalidProducerID)
	// ErrConfig matches CONFIG_EXCEPTION (64).
	ErrConfig = sentinel(CodeConfig)
	// ErrNotCoordinatorLeader matches NOT_COORDINATOR_LEADER_EXCEPTION (65).
	ErrNotCoordinatorLeader = sentinel(CodeNotCoordinatorLeader)
	// ErrScannerExpired matches SCANNER_EXPIRED (66).
	ErrScannerExpired = sentinel(CodeScannerExpired)
	// ErrUnknownScannerID matches UNKNOWN_SCANNER_ID (67).
	ErrUnknownScannerID = sentinel(CodeUnknownScannerID)
	// ErrInvalidScanRequest matches INVALID_SCAN_REQUEST (68).
	ErrInvalidScanRequest = sentinel(CodeInvalidScanRequest)
	// ErrTooManyScanners matches TOO_MANY_SCANNERS (69).
	ErrTooManyScanners = sentinel(CodeTooManyScanners)
	// ErrDiskWriteLocked matches DISK_WRITE_LOCKED (70).
	ErrDiskWriteLocked = sentinel(CodeDiskWriteLocked)
	// ErrInsufficientKVLeaderReplicaCapacity matches INSUFFICIENT_KV_LEADER_REPLICA_CAPACITY (71).
	ErrInsufficientKVLeaderReplicaCapacity = sentinel(CodeInsufficientKVLeaderReplicaCapacity)
	// ErrStorageBackpressure matches STORAGE_BACKPRESSURE_EXCEPTION (72).
	ErrStorageBackpressure = sentinel(CodeStorageBackpressure)
	// ErrHistoricalPartitionThrottled matches HISTORICAL_PARTITION_THROTTLED (73).
	ErrHistoricalPartitionThrottled = sentinel(CodeHistoricalPartitionThrottled)
)
