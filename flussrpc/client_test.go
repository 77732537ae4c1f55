package flussrpc

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/gofluss/fluss/flussrpc/pb"
	"github.com/gofluss/fluss/internal/fakefluss"
	"google.golang.org/protobuf/proto"
)

// TestAnyReadSkipsARefusingServer: a killed tablet server stays in the
// metadata until its session expires; a read-only admin call that picks it
// must go on to a server that answers instead of failing with the refused
// dial (it did one time in four: the retry picked at random again).
func TestAnyReadSkipsARefusingServer(t *testing.T) {
	live := newFakeServer(t, APIKeyGetMetadata, APIKeyListDatabases)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	node := func(id int32, addr string) *pb.PbServerNode {
		host, port, _ := net.SplitHostPort(addr)
		p, _ := strconv.Atoi(port)
		return &pb.PbServerNode{NodeId: proto.Int32(id), Host: proto.String(host), Port: proto.Int32(int32(p))}
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			var r fakefluss.Request
			select {
			case r = <-live.Requests():
			case <-stop:
				return
			}
			if APIKey(r.API) == APIKeyListDatabases {
				r.Reply(&pb.ListDatabasesResponse{DatabaseName: []string{"fluss"}})
				continue
			}
			r.Reply(&pb.MetadataResponse{
				CoordinatorServer: node(0, live.Addr()),
				TabletServers:     []*pb.PbServerNode{node(1, live.Addr()), node(2, dead)},
			})
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := NewClient(ctx, Config{Bootstrap: []string{live.Addr()}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := range 40 {
		dbs, err := c.Admin().ListDatabases(ctx)
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if len(dbs) != 1 || dbs[0] != "fluss" {
			t.Fatalf("call %d: databases %v", i, dbs)
		}
	}
}
