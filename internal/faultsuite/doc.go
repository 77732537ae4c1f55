// Package faultsuite holds the fault-injection suite: writers through
// database/sql and the native client keep writing to a replicated
// three-tablet cluster while a bucket leader is killed with SIGKILL and
// restarted, connections are cut at random, and the coordinator is killed
// and restarted; then no acknowledged row may be lost or duplicated.
//
// The suite needs its own cluster, so its tests carry the build tag
// faultsuite and `make test` runs them separately:
//
//	FLUSS_PORT=9150 FLUSS_TABLETS=3 FLUSS_SASL=1 go test -tags faultsuite ./internal/faultsuite
package faultsuite
