// Package testkit holds the helpers the module's tests share, so that each
// exists once: golden files behind the one -update flag, a test context,
// unique object names for the shared local cluster, and decimals.
package testkit
