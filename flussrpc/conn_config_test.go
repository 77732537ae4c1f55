package flussrpc

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestConnConfigHidesPassword: no way of printing a ConnConfig, or the
// Config that holds one, shows the password.
func TestConnConfigHidesPassword(t *testing.T) {
	conn := ConnConfig{Username: "alice", Password: "s3cret-pw", DialTimeout: time.Second}
	for _, v := range []any{conn, &conn, Config{Bootstrap: []string{"h:1"}, Conn: conn}, &Config{Conn: conn}} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
			out := fmt.Sprintf(verb, v)
			if strings.Contains(out, "s3cret-pw") || strings.Contains(out, fmt.Sprintf("%x", "s3cret-pw")) {
				t.Errorf("%s of %T shows the password: %s", verb, v, out)
			}
		}
	}
	if got := fmt.Sprintf("%+v", conn); !strings.Contains(got, "Username:alice") || !strings.Contains(got, "Password:xxxxx") {
		t.Errorf("%%+v = %s, want the user and a masked password", got)
	}
	if got := fmt.Sprintf("%#v", conn); !strings.HasPrefix(got, "flussrpc.ConnConfig{") {
		t.Errorf("%%#v = %s, want Go syntax of flussrpc.ConnConfig", got)
	}
}
