# The two commands a newcomer needs are `make demo` and `make test`; every
# other target is a building block. Everything the targets need (server jars,
# a Python venv with the peer client, Go tools) is installed by the targets.

GO          ?= go
PYTHON      ?= python3
VENV        ?= .venv
PEER_PY      = $(VENV)/bin/python
GOBIN       ?= $(CURDIR)/.bin
STATICCHECK  = $(GOBIN)/staticcheck
CLUSTER      = $(GO) run ./cmd/fluss-cluster

# Versions of the tools and peers, pinned here and nowhere else.
STATICCHECK_VERSION = v0.8.2
PYFLUSS_VERSION     = 1.0.0
PYARROW_VERSION     = 26.0.1
ADBC_VERSION        = 1.13.0
DUCKDB_PY_VERSION   = 2.0.0
PROTOC_GEN_GO       = google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12

export FLUSS_PEER_PYTHON = $(CURDIR)/$(PEER_PY)

# The Go modules of the repository besides the root one: the GORM dialector,
# the examples that need GORM or bun, the DuckDB analytics engine, the
# OpenTelemetry adapter and the programs that link them carry their own
# dependencies, so that the driver module does not. Every target
# that builds, vets or tests runs in each of them too.
SUBMODULES = gorm examples/gorm examples/bun analytics otel bench/analytics cmd/flussql cmd/fluss-flightsql
# DuckDB's Arrow interface, which the analytics module feeds the engine
# through, is compiled only with this tag; the other modules ignore it.
export GOFLAGS += -tags=duckdb_arrow
# in_modules runs a shell command in every submodule, stopping at the first failure.
in_modules = for m in $(SUBMODULES); do (cd $$m && $(1)) || exit 1; done

.PHONY: all build demo test integration fault-test lint vet fmt-check staticcheck peers generate \
        cluster-up cluster-stop cluster-down cluster-status fuzz bench bench-peers clean javapeer jdbcpeer flightsql

all: build

# A module with a single main package (an example) would leave its binary
# beside the sources; -o /dev/null only checks that it builds.
build:
	$(GO) build ./...
	@$(call in_modules,$(GO) build -o /dev/null ./...)

## demo: start the local cluster if none runs, then run the quickstart example
## and the OpenTelemetry demo (the span trees of an INSERT and a SELECT, and
## the client's metrics). (With the same settings as make test, so that the
## two share one cluster.)
demo:
	@FLUSS_SASL=1 $(CLUSTER) up
	$(GO) run ./examples/quickstart
	cd otel && $(GO) run ./demo

## test: lint, unit tests, fuzz seeds and the integration suite against a real
## local cluster with a SASL listener. A cluster that already runs (make
## demo's) is used as it is and left running with its data; one that test
## starts is stopped at the end, its data kept for the next run (only
## make cluster-down removes data).
## FLUSS_INTEGRATION=1 turns the integration tests on: without it (plain
## `go test ./...`) they skip, and the unit tests run alone in seconds.
##
## Then the fault suite (internal/faultsuite, build tag faultsuite) runs on a
## cluster of its own: three tablet servers, replication 3, on
## FLUSS_FAULT_PORT (default FLUSS_PORT + 50, clear of the main cluster's
## ports), started and stopped the same way; it kills servers and cuts
## connections.
INTEGRATION = FLUSS_SASL=1 FLUSS_INTEGRATION=1

test: lint peers javapeer jdbcpeer
	@FLUSS_SASL=1 $(CLUSTER) run -- $(MAKE) --no-print-directory integration
	@$(MAKE) --no-print-directory fault-test

## integration: the integration suite of every module against the local
## cluster (each test binary starts it if none runs, and leaves it running)
## or the one FLUSS_BOOTSTRAP names. Packages run one at a time (-p 1): a
## Fluss 0.9.1 coordinator under heavy concurrent DDL can miss a table's
## creation (its ZooKeeper cache sees the table node only after its data was
## written) and never elect leaders for it. Every module runs, even after
## one fails.
integration:
	@status=0; $(INTEGRATION) $(GO) test -race -count=1 -p 1 -timeout 60m ./... || status=$$?; \
	  for m in $(SUBMODULES); do \
	    (cd $$m && $(INTEGRATION) $(GO) test -race -count=1 -p 1 -timeout 20m ./...) || status=$$?; \
	  done; exit $$status

FAULT_ENV = $(INTEGRATION) FLUSS_TABLETS=3 \
	FLUSS_PORT=$${FLUSS_FAULT_PORT:-$$(( $${FLUSS_PORT:-9123} + 50 ))}

## fault-test: the fault-injection suite alone, on its own 3-tablet cluster.
fault-test:
	@$(FAULT_ENV) $(CLUSTER) run -- $(GO) test -tags faultsuite -race -count=1 -timeout 15m -v -run TestFaults ./internal/faultsuite

lint: fmt-check vet staticcheck

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	@$(call in_modules,$(GO) vet ./...)
	$(GO) vet -tags faultsuite ./internal/faultsuite

staticcheck: $(STATICCHECK)
	$(STATICCHECK) ./...
	@$(call in_modules,$(STATICCHECK) ./...)
	$(STATICCHECK) -tags faultsuite ./internal/faultsuite

$(STATICCHECK):
	GOBIN=$(GOBIN) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

## peers: a Python venv with the independent clients the suite cross-checks
## against: pyfluss, the ADBC Flight SQL driver for the Flight SQL server,
## and DuckDB, which bench-peers's pyfluss runs query with.
## The stamp names the versions, so that changing one reinstalls.
PEERS_STAMP = $(VENV)/.peers-$(PYFLUSS_VERSION)-$(PYARROW_VERSION)-$(ADBC_VERSION)-$(DUCKDB_PY_VERSION)
peers: $(PEERS_STAMP)

$(PEERS_STAMP):
	@[ -x $(PEER_PY) ] || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check pyfluss==$(PYFLUSS_VERSION) pyarrow==$(PYARROW_VERSION) \
	  adbc-driver-manager==$(ADBC_VERSION) adbc-driver-flightsql==$(ADBC_VERSION) duckdb==$(DUCKDB_PY_VERSION)
	@touch $@

## javapeer: compile the Java client witness (internal/javapeer) with Maven,
## against fluss-client at the server version pinned in internal/cluster.
## A later Java benchmark can live in the same Maven project.
FLUSS_VERSION = $(shell sed -n 's/^const DefaultFlussVersion = "\(.*\)"/\1/p' internal/cluster/config.go)
JAVAPEER      = internal/javapeer
JAVAPEER_CP   = $(JAVAPEER)/target/peer.classpath

javapeer: $(JAVAPEER_CP)

# mvn_compile builds the Maven project in directory $(1) (its target/
# holds the classpath file being made) against fluss-client at FLUSS_VERSION.
define mvn_compile
	@command -v mvn >/dev/null || { echo "mvn missing: apt-get install maven"; exit 1; }
	mvn -B -q -f $(1)/pom.xml -Dfluss.version=$(FLUSS_VERSION) compile
	@touch $@
endef

$(JAVAPEER_CP): $(JAVAPEER)/pom.xml $(wildcard $(JAVAPEER)/src/main/java/*/*/*/*/*.java) internal/cluster/config.go
	$(call mvn_compile,$(JAVAPEER))

## jdbcpeer: compile the Flight SQL JDBC driver check (internal/jdbcpeer),
## the client JDBC tools use to reach the Flight SQL server.
JDBCPEER    = internal/jdbcpeer
JDBCPEER_CP = $(JDBCPEER)/target/peer.classpath

jdbcpeer: $(JDBCPEER_CP)

$(JDBCPEER_CP): $(JDBCPEER)/pom.xml $(wildcard $(JDBCPEER)/src/main/java/*/*/*/*/*.java)
	$(call mvn_compile,$(JDBCPEER))

## generate: regenerate the protobuf Go code from flussrpc/pb/fluss_api.proto.
generate:
	@command -v protoc >/dev/null || { echo "protoc missing: apt-get install protobuf-compiler"; exit 1; }
	GOBIN=$(GOBIN) $(GO) install $(PROTOC_GEN_GO)
	PATH=$(GOBIN):$$PATH $(GO) generate ./flussrpc/pb

## flightsql: start the local cluster if none runs, then serve it over Arrow
## Flight SQL on FLIGHTSQL_ADDR; clients log in as a Fluss SASL user (the
## local cluster's are printed by `up`).
FLIGHTSQL_ADDR ?= 127.0.0.1:32010
flightsql:
	@eval "$$(FLUSS_SASL=1 $(CLUSTER) up | tee /dev/stderr | grep '^FLUSS_SASL_BOOTSTRAP=')"; \
	  $(GO) run ./cmd/fluss-flightsql --addr $(FLIGHTSQL_ADDR) --dsn "fluss://$$FLUSS_SASL_BOOTSTRAP/fluss"

## cluster-up: start the local cluster (on the data of its last run, if
## any) or reuse the running one, and keep it running. cluster-stop stops
## it and keeps its data; cluster-down stops it and removes its data, the
## only target that does.
cluster-up:
	@FLUSS_SASL=$${FLUSS_SASL:-1} $(CLUSTER) up

cluster-stop:
	@$(CLUSTER) stop

cluster-down:
	@$(CLUSTER) down

cluster-status:
	@FLUSS_SASL=$${FLUSS_SASL:-1} $(CLUSTER) status

## fuzz: run every fuzz target for FUZZTIME each (the seeds also run in `make test`).
## A target fails when it writes a failing input to testdata/fuzz. Go before
## 1.27 may also end a run with a bare "context deadline exceeded" when
## -fuzztime runs out (golang/go#75804): such a run wrote no input, so the
## target runs once more, and fails if that run fails too.
FUZZTIME ?= 20s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  dir=$$($(GO) list -f '{{.Dir}}' $$pkg); \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    for try in 1 2; do \
	      echo "== $$pkg $$f"; \
	      before=$$(ls $$dir/testdata/fuzz/$$f 2>/dev/null | wc -l); \
	      $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg && break; \
	      after=$$(ls $$dir/testdata/fuzz/$$f 2>/dev/null | wc -l); \
	      if [ $$try = 2 ] || [ $$after != $$before ]; then exit 1; fi; \
	      echo "$$f wrote no failing input (golang/go#75804?): running it again"; \
	    done; \
	  done; done

## bench: every `go test` benchmark: codecs, and the client's paths against
## the local cluster (started here like for make test).
bench:
	@FLUSS_SASL=1 $(CLUSTER) up
	$(INTEGRATION) $(GO) test -run '^$$' -bench . -benchmem ./...

## bench-peers: this client, the Java client and pyfluss side by side on the
## local cluster, each workload in its own process, plus the server ceiling;
## then the embedded engine's GROUP BY, filter and join (bench/analytics,
## a module of its own: it links DuckDB) against pyfluss + DuckDB in
## Python, and a scan of LARGE_ROWS rows; prints a table and the ratios to
## the targets, and writes them under bench/results/. Not part of make test.
## The analytic and large tables are kept in database benchpeers_data for
## the next run (drop it to make them again).
## A quick run: make bench-peers ROWS=100000 LARGE_ROWS=1000000 ROUNDS=1 (LOOKUP_TIME:
## per lookup run; ONLY: a regular expression of the workload groups to run,
## e.g. ONLY='to Arrow' or ONLY='GROUP BY|filter|join|kept')
ROWS        ?= 1000000
LARGE_ROWS  ?= 10000000
ROUNDS      ?= 3
LOOKUP_TIME ?= 5s
ONLY        ?=
BENCH_JAVA    = bench/java
BENCH_JAVA_CP = $(BENCH_JAVA)/target/bench.classpath

bench-peers: peers $(BENCH_JAVA_CP)
	@FLUSS_SASL=1 $(CLUSTER) up
	$(GO) build -o .bin/benchpeers-ours ./bench/ours
	$(GO) build -o .bin/benchpeers-analytics ./bench/analytics
	$(INTEGRATION) $(GO) run ./bench/benchpeers -ours .bin/benchpeers-ours -analytics .bin/benchpeers-analytics \
	  -rows $(ROWS) -large-rows $(LARGE_ROWS) -rounds $(ROUNDS) -lookup-time $(LOOKUP_TIME) -only '$(ONLY)' \
	  -python $(CURDIR)/$(PEER_PY) -java "$(CURDIR)/$(BENCH_JAVA)/target/classes:$$(cat $(BENCH_JAVA_CP))"

$(BENCH_JAVA_CP): $(BENCH_JAVA)/pom.xml $(wildcard $(BENCH_JAVA)/src/main/java/*/*/*/*/*.java) internal/cluster/config.go
	$(call mvn_compile,$(BENCH_JAVA))

clean:
	rm -rf $(GOBIN) $(VENV) $(JAVAPEER)/target $(JDBCPEER)/target $(BENCH_JAVA)/target
