package flussrpc

import (
	"context"
	"errors"

	"google.golang.org/protobuf/proto"

	"github.com/gofluss/fluss/flussrpc/pb"
)

// rpc ties an API key to its request and response messages. Every request
// outside the connection's own code is sent through one of the descriptors
// below, so the compiler refuses a request or response of another API: a
// server that receives a body it cannot parse drops it without answering,
// which would surface only as a timeout.
type rpc[Req, Resp proto.Message] struct{ key APIKey }

// The descriptors of the RPCs this client sends, one per API.
// TestRPCDescriptors checks every pairing below against the message names.
var (
	rpcAPIVersions            = rpc[*pb.ApiVersionsRequest, *pb.ApiVersionsResponse]{APIKeyAPIVersions}
	rpcAuthenticate           = rpc[*pb.AuthenticateRequest, *pb.AuthenticateResponse]{APIKeyAuthenticate}
	rpcGetMetadata            = rpc[*pb.MetadataRequest, *pb.MetadataResponse]{APIKeyGetMetadata}
	rpcCreateDatabase         = rpc[*pb.CreateDatabaseRequest, *pb.CreateDatabaseResponse]{APIKeyCreateDatabase}
	rpcDropDatabase           = rpc[*pb.DropDatabaseRequest, *pb.DropDatabaseResponse]{APIKeyDropDatabase}
	rpcListDatabases          = rpc[*pb.ListDatabasesRequest, *pb.ListDatabasesResponse]{APIKeyListDatabases}
	rpcDatabaseExists         = rpc[*pb.DatabaseExistsRequest, *pb.DatabaseExistsResponse]{APIKeyDatabaseExists}
	rpcGetDatabaseInfo        = rpc[*pb.GetDatabaseInfoRequest, *pb.GetDatabaseInfoResponse]{APIKeyGetDatabaseInfo}
	rpcCreateTable            = rpc[*pb.CreateTableRequest, *pb.CreateTableResponse]{APIKeyCreateTable}
	rpcDropTable              = rpc[*pb.DropTableRequest, *pb.DropTableResponse]{APIKeyDropTable}
	rpcAlterTable             = rpc[*pb.AlterTableRequest, *pb.AlterTableResponse]{APIKeyAlterTable}
	rpcGetTableInfo           = rpc[*pb.GetTableInfoRequest, *pb.GetTableInfoResponse]{APIKeyGetTableInfo}
	rpcGetTableSchema         = rpc[*pb.GetTableSchemaRequest, *pb.GetTableSchemaResponse]{APIKeyGetTableSchema}
	rpcListTables             = rpc[*pb.ListTablesRequest, *pb.ListTablesResponse]{APIKeyListTables}
	rpcTableExists            = rpc[*pb.TableExistsRequest, *pb.TableExistsResponse]{APIKeyTableExists}
	rpcListPartitionInfos     = rpc[*pb.ListPartitionInfosRequest, *pb.ListPartitionInfosResponse]{APIKeyListPartitionInfos}
	rpcCreatePartition        = rpc[*pb.CreatePartitionRequest, *pb.CreatePartitionResponse]{APIKeyCreatePartition}
	rpcDropPartition          = rpc[*pb.DropPartitionRequest, *pb.DropPartitionResponse]{APIKeyDropPartition}
	rpcCreateACLs             = rpc[*pb.CreateAclsRequest, *pb.CreateAclsResponse]{APIKeyCreateACLs}
	rpcListACLs               = rpc[*pb.ListAclsRequest, *pb.ListAclsResponse]{APIKeyListACLs}
	rpcDropACLs               = rpc[*pb.DropAclsRequest, *pb.DropAclsResponse]{APIKeyDropACLs}
	rpcDescribeClusterConfigs = rpc[*pb.DescribeClusterConfigsRequest, *pb.DescribeClusterConfigsResponse]{APIKeyDescribeClusterConfigs}
	rpcAlterClusterConfigs    = rpc[*pb.AlterClusterConfigsRequest, *pb.AlterClusterConfigsResponse]{APIKeyAlterClusterConfigs}
	rpcAddServerTag           = rpc[*pb.AddServerTagRequest, *pb.AddServerTagResponse]{APIKeyAddServerTag}
	rpcRemoveServerTag        = rpc[*pb.RemoveServerTagRequest, *pb.RemoveServerTagResponse]{APIKeyRemoveServerTag}
	rpcRebalance              = rpc[*pb.RebalanceRequest, *pb.RebalanceResponse]{APIKeyRebalance}
	rpcListRebalanceProgress  = rpc[*pb.ListRebalanceProgressRequest, *pb.ListRebalanceProgressResponse]{APIKeyListRebalanceProgress}
	rpcCancelRebalance        = rpc[*pb.CancelRebalanceRequest, *pb.CancelRebalanceResponse]{APIKeyCancelRebalance}
	rpcAcquireKVSnapshotLease = rpc[*pb.AcquireKvSnapshotLeaseRequest, *pb.AcquireKvSnapshotLeaseResponse]{APIKeyAcquireKVSnapshotLease}
	rpcDropKVSnapshotLease    = rpc[*pb.DropKvSnapshotLeaseRequest, *pb.DropKvSnapshotLeaseResponse]{APIKeyDropKVSnapshotLease}
	rpcGetLatestKVSnapshots   = rpc[*pb.GetLatestKvSnapshotsRequest, *pb.GetLatestKvSnapshotsResponse]{APIKeyGetLatestKVSnapshots}
	rpcGetLakeSnapshot        = rpc[*pb.GetLakeSnapshotRequest, *pb.GetLakeSnapshotResponse]{APIKeyGetLakeSnapshot}
	rpcGetTableStats          = rpc[*pb.GetTableStatsRequest, *pb.GetTableStatsResponse]{APIKeyGetTableStats}
	rpcListOffsets            = rpc[*pb.ListOffsetsRequest, *pb.ListOffsetsResponse]{APIKeyListOffsets}
	rpcInitWriter             = rpc[*pb.InitWriterRequest, *pb.InitWriterResponse]{APIKeyInitWriter}
	rpcProduceLog             = rpc[*pb.ProduceLogRequest, *pb.ProduceLogResponse]{APIKeyProduceLog}
	rpcPutKV                  = rpc[*pb.PutKvRequest, *pb.PutKvResponse]{APIKeyPutKV}
	rpcFetchLog               = rpc[*pb.FetchLogRequest, *pb.FetchLogResponse]{APIKeyFetchLog}
	rpcLookup                 = rpc[*pb.LookupRequest, *pb.LookupResponse]{APIKeyLookup}
	rpcPrefixLookup           = rpc[*pb.PrefixLookupRequest, *pb.PrefixLookupResponse]{APIKeyPrefixLookup}
	rpcLimitScan              = rpc[*pb.LimitScanRequest, *pb.LimitScanResponse]{APIKeyLimitScan}
	rpcScanKV                 = rpc[*pb.ScanKvRequest, *pb.ScanKvResponse]{APIKeyScanKV}
)

// call sends req on cn and decodes the answer into resp (conn.call). The
// handshake uses it on a connection the pool does not hold yet.
func (r rpc[Req, Resp]) call(ctx context.Context, cn *conn, req Req, resp Resp) error {
	return cn.call(ctx, r.key, req, resp)
}

// roundTrip sends req at an explicit version and waits for the answer. It
// skips the advertisement check of call, which the handshake needs because
// API_VERSIONS is what produces the advertisement.
func (r rpc[Req, Resp]) roundTrip(ctx context.Context, cn *conn, version int16, req Req, resp Resp) error {
	w, err := cn.startVersion(ctx, r.key, version, req)
	if err != nil {
		return err
	}
	return cn.await(ctx, r.key, w, resp)
}

// inflight is a request written to a server whose answer is still to be
// awaited. It is a value, so a request costs no allocation for it.
type inflight[Req, Resp proto.Message] struct {
	r  rpc[Req, Resp]
	cn *conn
	w  *waiter
}

// startAt writes req to the server at addr through the client's pool
// (Client.connTo, conn.start): the first half of every request a Client
// sends. callAddr awaits the answer at once; the writer's sender awaits it
// in another goroutine, so that its requests to a server leave in order.
func startAt[Req, Resp proto.Message](ctx context.Context, c *Client, addr string, r rpc[Req, Resp], req Req) (inflight[Req, Resp], error) {
	cn, err := c.connTo(ctx, addr)
	if err != nil {
		return inflight[Req, Resp]{}, err
	}
	w, err := cn.start(ctx, r.key, req)
	if err != nil {
		return inflight[Req, Resp]{}, err
	}
	return inflight[Req, Resp]{r: r, cn: cn, w: w}, nil
}

// await waits for the answer and decodes it into resp (conn.await).
func (f inflight[Req, Resp]) await(ctx context.Context, resp Resp) error {
	return f.cn.await(ctx, f.r.key, f.w, resp)
}

// callAddr sends one request to the server at addr under the client's
// request timeout and waits for its answer.
func callAddr[Req, Resp proto.Message](ctx context.Context, c *Client, addr string, r rpc[Req, Resp], req Req, resp Resp) error {
	ctx, cancel := c.withTimeout(ctx)
	defer cancel()
	f, err := startAt(ctx, c, addr, r, req)
	if err != nil {
		return err
	}
	return f.await(ctx, resp)
}

// callNode sends one request to a known server node.
func callNode[Req, Resp proto.Message](ctx context.Context, c *Client, n ServerNode, r rpc[Req, Resp], req Req, resp Resp) error {
	return callAddr(ctx, c, n.Addr(), r, req, resp)
}

// callCoordinator sends a request that only the coordinator serves
// (catalog writes). It is never retried: such requests are not idempotent.
func callCoordinator[Req, Resp proto.Message](ctx context.Context, c *Client, r rpc[Req, Resp], req Req, resp Resp) error {
	n, err := c.coordinator(ctx)
	if err != nil {
		return err
	}
	return callNode(ctx, c, n, r, req, resp)
}

// callAnyRead sends a read-only request to any live server, preferring
// tablet servers to spare the coordinator (as the Java client does). On a
// retriable failure it refreshes the node list once and tries the other
// servers, never the ones that already failed: a killed tablet server
// stays in the coordinator's list until its ZooKeeper session expires, and
// picking it at random again would fail a read that any other server
// answers.
func callAnyRead[Req, Resp proto.Message](ctx context.Context, c *Client, r rpc[Req, Resp], req Req, resp Resp) error {
	var failed map[string]bool // made on the first failure: most calls have none
	var errs []error
	for {
		n, ok := c.anyServerExcept(failed)
		if !ok {
			return errors.Join(errs...)
		}
		err := callNode(ctx, c, n, r, req, resp)
		if err == nil || !IsRetriable(err) || ctx.Err() != nil {
			return err
		}
		errs = append(errs, err)
		if failed == nil {
			if rerr := c.refreshCluster(ctx); rerr != nil {
				return errors.Join(append(errs, rerr)...)
			}
			failed = make(map[string]bool)
		}
		failed[n.Addr()] = true
		proto.Reset(resp)
	}
}
