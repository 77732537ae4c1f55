package fluss

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
)

// DSN values of the tls key that are not registered names.
const (
	tlsOff        = "false"
	tlsVerify     = "true"
	tlsSkipVerify = "skip-verify"
)

// tlsRegistry holds the configs of RegisterTLSConfig. A DSN only carries
// a name, so whatever cannot be written in it (client certificates, custom
// verification) lives here.
var tlsRegistry = struct {
	sync.RWMutex
	byName map[string]*tls.Config
}{byName: map[string]*tls.Config{}}

// RegisterTLSConfig makes cfg usable in DSNs as tls=name, as
// go-sql-driver/mysql does. cfg is cloned, so changing it afterwards has no
// effect; register again to replace it. The names true, false, skip-verify
// and preferred (in any case) are reserved. Each connection's config gets
// the server's host as ServerName when cfg leaves it empty.
func RegisterTLSConfig(name string, cfg *tls.Config) error {
	switch {
	case name == "":
		return errors.New("fluss: RegisterTLSConfig needs a name")
	case isReservedTLSName(name):
		return fmt.Errorf("fluss: TLS config name %q is reserved", name)
	case cfg == nil:
		return fmt.Errorf("fluss: RegisterTLSConfig(%q) with a nil config", name)
	}
	tlsRegistry.Lock()
	defer tlsRegistry.Unlock()
	tlsRegistry.byName[name] = cfg.Clone()
	return nil
}

// DeregisterTLSConfig removes a config registered with RegisterTLSConfig.
// DSNs naming it fail to parse afterwards; connectors already created keep
// their copy.
func DeregisterTLSConfig(name string) {
	tlsRegistry.Lock()
	defer tlsRegistry.Unlock()
	delete(tlsRegistry.byName, name)
}

// isReservedTLSName reports the names that tls= gives a fixed meaning to.
// "preferred" (mysql's TLS-or-plaintext) is reserved but refused: falling
// back to plaintext would defeat the point of asking for TLS.
func isReservedTLSName(name string) bool {
	for _, r := range []string{tlsOff, tlsVerify, tlsSkipVerify, "preferred"} {
		if strings.EqualFold(name, r) {
			return true
		}
	}
	return false
}

// registeredTLS returns a copy of the config registered as name, or nil.
func registeredTLS(name string) *tls.Config {
	tlsRegistry.RLock()
	defer tlsRegistry.RUnlock()
	if cfg := tlsRegistry.byName[name]; cfg != nil {
		return cfg.Clone()
	}
	return nil
}

// resolveTLS builds c.TLS from the tls, tls_ca and tls_server_name keys.
// It runs after all keys are read because the latter two refine what tls
// chose and are meaningless without it.
func (c *Config) resolveTLS() error {
	cfg, err := tlsBase(c.TLSName)
	if err != nil {
		return err
	}
	if cfg == nil {
		if c.TLSCAFile == "" && c.TLSServerName == "" {
			return nil
		}
		key := "tls_ca"
		if c.TLSCAFile == "" {
			key = "tls_server_name"
		}
		return fmt.Errorf("%s needs TLS: add tls=true, tls=skip-verify or tls=<registered name>", key)
	}
	if c.TLSServerName != "" {
		cfg.ServerName = c.TLSServerName
	}
	if c.TLSCAFile != "" {
		if cfg.InsecureSkipVerify {
			return fmt.Errorf("tls_ca=%q has no effect: tls=%s does not verify certificates", c.TLSCAFile, c.TLSName)
		}
		if cfg.RootCAs, err = addCAFile(cfg.RootCAs, c.TLSCAFile); err != nil {
			return err
		}
	}
	c.TLS = cfg
	return nil
}

// tlsBase returns a fresh config for a tls= value, nil for no TLS.
func tlsBase(name string) (*tls.Config, error) {
	switch name {
	case "", tlsOff:
		return nil, nil
	case tlsVerify:
		return &tls.Config{}, nil
	case tlsSkipVerify:
		return &tls.Config{InsecureSkipVerify: true}, nil
	}
	if cfg := registeredTLS(name); cfg != nil {
		return cfg, nil
	}
	return nil, fmt.Errorf("tls=%q: no TLS config of that name; want false, true, skip-verify or a name given to fluss.RegisterTLSConfig", name)
}

// addCAFile returns pool (copied, never changed) plus the certificates of
// a PEM file. A nil pool starts empty rather than from the system roots:
// tls_ca names the CA that signs the proxy's certificate, and public CAs
// have no business vouching for it.
func addCAFile(pool *x509.CertPool, path string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tls_ca=%q: %v", path, err)
	}
	if pool == nil {
		pool = x509.NewCertPool()
	} else {
		pool = pool.Clone()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("tls_ca=%q: no PEM certificate in the file", path)
	}
	return pool, nil
}
