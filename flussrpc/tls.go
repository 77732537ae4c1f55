package flussrpc

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
)

// dialNetwork opens the byte stream to addr: cfg.Dialer, then, when cfg.TLS
// is set, a TLS client handshake on top. The handshake belongs to the dial
// because a connection that cannot complete it has carried no request
// yet, and ctx (which holds the dial timeout) bounds both steps.
func dialNetwork(ctx context.Context, addr string, cfg ConnConfig) (net.Conn, error) {
	nc, err := cfg.Dialer(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if tc, ok := nc.(*net.TCPConn); ok {
		// Requests are written as whole frames; never let Nagle hold the
		// tail of one back waiting for an ACK. Under TLS a frame becomes
		// several records, so this matters on the raw socket.
		_ = tc.SetNoDelay(true)
	}
	if cfg.TLS == nil {
		return nc, nil
	}
	tc := tls.Client(nc, tlsConfigFor(cfg.TLS, addr))
	if err := tc.HandshakeContext(ctx); err != nil {
		_ = nc.Close()
		return nil, fmt.Errorf("TLS handshake: %w", err)
	}
	return tc, nil
}

// tlsConfigFor returns the TLS configuration of one dial to addr. It is a
// copy, so the caller's config is never changed and concurrent dials do
// not share one. An empty ServerName becomes the host of addr: each server
// of the cluster is then verified under its own (advertised) name, which
// is what a proxy in front of each server presents.
func tlsConfigFor(base *tls.Config, addr string) *tls.Config {
	cfg := base.Clone()
	if cfg.ServerName == "" {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			host = addr
		}
		cfg.ServerName = host
	}
	return cfg
}

// closeNetConn closes the socket under nc at once. A *tls.Conn would first
// send close_notify with a deadline of its own (five seconds), blocking a
// shutdown whose peer has stopped reading; Fluss frames are length
// prefixed, so the peer loses nothing without that alert.
func closeNetConn(nc net.Conn) error {
	if tc, ok := nc.(*tls.Conn); ok {
		return tc.NetConn().Close()
	}
	return nc.Close()
}

// isPermanentTLSError reports whether err is a TLS failure that a retry
// cannot fix: the server's certificate was refused, the peer does not
// speak TLS, or it rejected our handshake with an alert.
func isPermanentTLSError(err error) bool {
	var (
		verify    *tls.CertificateVerificationError
		header    tls.RecordHeaderError
		alert     tls.AlertError
		authority x509.UnknownAuthorityError
		hostname  x509.HostnameError
		invalid   x509.CertificateInvalidError
	)
	return errors.As(err, &verify) || errors.As(err, &header) || errors.As(err, &alert) ||
		errors.As(err, &authority) || errors.As(err, &hostname) || errors.As(err, &invalid)
}
