package clustertest

import (
	"errors"
	"slices"
	"testing"
)

// TestExecWithLeaders checks which statements are created again after a
// table came without leaders, and that an error carrying only the text of
// flussrpc.ErrNoLeaders (as across gRPC) counts.
func TestExecWithLeaders(t *testing.T) {
	t.Setenv("FLUSS_BOOTSTRAP", "127.0.0.1:1") // an external cluster: no coordinator restart
	noLeaders := errors.New("rpc error: table db.t exists without bucket leaders: bucket 0 of 1 has no leader")
	for _, tc := range []struct {
		query string
		want  []string // the statements run, in order
	}{
		{"CREATE TABLE db.t (id INT)", []string{"CREATE TABLE db.t (id INT)", "DROP TABLE IF EXISTS db.t", "CREATE TABLE db.t (id INT)"}},
		{"create table if not exists db.t(id INT)", []string{"create table if not exists db.t(id INT)", "DROP TABLE IF EXISTS db.t", "create table if not exists db.t(id INT)"}},
		{"ALTER TABLE db.t ADD PARTITION (d = '1')", []string{"ALTER TABLE db.t ADD PARTITION (d = '1')", "ALTER TABLE db.t DROP IF EXISTS PARTITION (d = '1')", "ALTER TABLE db.t ADD PARTITION (d = '1')"}},
		{"INSERT INTO db.t VALUES (1)", []string{"INSERT INTO db.t VALUES (1)"}},
	} {
		var ran []string
		err := ExecWithLeaders(t, tc.query, func(q string) error {
			ran = append(ran, q)
			if len(ran) == 1 {
				return noLeaders
			}
			return nil
		})
		if !slices.Equal(ran, tc.want) {
			t.Errorf("%s: ran %q, want %q", tc.query, ran, tc.want)
		}
		if retried := len(tc.want) > 1; retried != (err == nil) {
			t.Errorf("%s: error %v", tc.query, err)
		}
	}
}
