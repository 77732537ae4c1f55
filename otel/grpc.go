package otel

import (
	"context"

	"go.opentelemetry.io/otel"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// GRPCServerOptions returns gRPC server options (for the Flight SQL
// server's Config.GRPCOptions) that continue the callers' traces: the
// context of each call carries the remote span context that its metadata
// names (a W3C traceparent, as the global propagator reads it; package
// otlp sets TraceContext and Baggage), so the statement spans the call
// makes join the caller's trace instead of starting their own.
func GRPCServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
			return next(extract(ctx), req)
		}),
		grpc.ChainStreamInterceptor(func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, next grpc.StreamHandler) error {
			return next(srv, tracedStream{ss, extract(ss.Context())})
		}),
	}
}

// extract returns ctx with the trace context of its incoming metadata.
func extract(ctx context.Context) context.Context {
	md, ok := metadata.FromIncomingContext(ctx)
	if !ok {
		return ctx
	}
	return otel.GetTextMapPropagator().Extract(ctx, mdCarrier(md))
}

// tracedStream is a server stream whose context carries the caller's
// trace context.
type tracedStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s tracedStream) Context() context.Context { return s.ctx }

// mdCarrier reads and writes gRPC metadata as a propagation.TextMapCarrier
// (metadata keys are lower case, as the W3C headers are).
type mdCarrier metadata.MD

func (c mdCarrier) Get(key string) string {
	if v := metadata.MD(c).Get(key); len(v) > 0 {
		return v[0]
	}
	return ""
}

func (c mdCarrier) Set(key, value string) { metadata.MD(c).Set(key, value) }

func (c mdCarrier) Keys() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	return keys
}
