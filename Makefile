# make serve   build everything and serve the calculator on http://127.0.0.1:8080
# make check   the inner loop, after every change: the JavaScript's lint, go vet, the Go tests
#              natively (-short), the node tests, with only the build they need (make wasm)
# make test    every test: the JavaScript's lint, go vet, Go natively (the long tests too), Go as
#              wasm under node (-short: the long statistical tests run natively only), fuzz smoke
#              runs, the node CLI, the page in headless Chromium; one step after another, each
#              also a target of its own ($(TEST_STEPS)); scripts/time-test.sh times them
# make fuzz    every Fuzz target for 60s      make bench   benchmarks and the site's size
# make fmt     format the JavaScript (Biome, biome.json: site/, tests/, scripts/*.mjs, scripts/cli/)
# make lint    check the JavaScript's format and Biome's recommended lint rules (biome ci)
# make site    build/site for a static host (with _headers)
# make wasm    build/wasm/lawcore.wasm and wasm_exec.js alone: what the CLI and the node tests load
# make clean   remove build/                  make distclean   also node_modules/
#
# From a fresh clone only go, node and npm are needed: `deps` installs Debian's chromium and the
# npm packages (uplot, playwright-core, esbuild, @biomejs/biome) when they are missing.

SITE      := build/site
WASM      := build/wasm
GOROOT    := $(shell go env GOROOT)
WASM_EXEC := $(GOROOT)/lib/wasm/go_js_wasm_exec
GO_WASM   := GOOS=js GOARCH=wasm go
UPLOT     := node_modules/uplot
ESBUILD   := node_modules/.bin/esbuild
BIOME     := node_modules/.bin/biome
# The core is built without inlining but where its fits and predictions spend their time
# (lawcore's engine, the annealing law, its numerics, gonum's optimizer and vector loops, math,
# slices, sort): inlining everywhere makes the first view's download larger, none at all makes
# predictions slower (docs/performance.md#the-cores-inlining).
LAWCORE_MODULE := github.com/lawcalc/annealing/lawcore
CORE_GCFLAGS := -gcflags=all=-l -gcflags=$(LAWCORE_MODULE)= -gcflags=$(LAWCORE_MODULE)/annealing= -gcflags=$(LAWCORE_MODULE)/internal/numeric= -gcflags=gonum.org/v1/gonum/floats/...= -gcflags=gonum.org/v1/gonum/optimize= -gcflags=gonum.org/v1/gonum/internal/asm/...= -gcflags=math= -gcflags=math/bits= -gcflags=slices= -gcflags=sort=

NODE_TESTS    := $(wildcard tests/node/*.test.mjs)
BROWSER_TESTS := $(wildcard tests/browser/*.test.mjs)
# node --test runs each file in a process of its own, by default one at a time on 2 cores
# (os.availableParallelism() - 1): two at a time keep both busy while a file waits for the CLI
# it runs. The browser tests run in one process (tests/browser/suite.mjs), BROWSER_CONCURRENCY
# files at a time (default 2) sharing one server and one Chromium.
NODE_TEST_CONCURRENCY ?= 2
# make test's steps, in order (scripts/time-test.sh runs and times them one by one).
TEST_STEPS := lint build vet test-go test-wasm fuzz-smoke test-node test-browser

.PHONY: all deps wasm build core-names site serve check test test-steps $(TEST_STEPS) lint fmt fuzz bench clean distclean

all: build

deps:
	@scripts/install-deps.sh

# wasm: build/wasm/lawcore.wasm (every method and law) and Go's wasm_exec.js, what the command
# line (scripts/lawcore.mjs) and the node tests load. Go's build cache makes it quick when
# nothing changed.
wasm:
	mkdir -p $(WASM)
	cp $(GOROOT)/lib/wasm/wasm_exec.js $(WASM)/
	$(GO_WASM) build -trimpath -ldflags="-s -w" -o $(WASM)/lawcore.wasm ./wasm

# build/wasm: make wasm's, and lawcore-core.wasm (the first view's small build of the bridge,
# -tags lawcore_core: wasm/methods_core.go). build/site: the page, uPlot (with its licence) and those two, the large files with
# content-hashed names under assets/ (cached as immutable), _headers, the service worker's list,
# and a brotli and a gzip copy of every text and wasm file (sent by Accept-Encoding).
# The page's modules (site/js) are bundled and minified by esbuild into js/main.js, js/offline.js
# and the chunks they share or load on first use (js/<name>-<hash>.js, with source maps): for the
# first view 7 requests and 57 kB (brotli) instead of 60 requests and 130 kB. js/boot.js is
# bundled on its own as a classic script (a previous build's js/ is removed first). The
# precompression is most of a build's time (brotli 11 on the two wasm modules, about 35 s of CPU);
# a rebuild skips the files that did not change.
build: deps wasm
	mkdir -p $(SITE)/vendor
	cp -R site/. $(SITE)/
	chmod -R u+w $(SITE)
	rm -rf $(SITE)/js && mkdir -p $(SITE)/js
	$(ESBUILD) site/js/boot.js --bundle --format=iife --minify --sourcemap --outfile=$(SITE)/js/boot.js --log-level=warning
	$(ESBUILD) site/js/main.js site/js/offline.js --bundle --splitting --format=esm --minify \
		--sourcemap --external:'../vendor/*' --chunk-names='[name]-[hash]' --outdir=$(SITE)/js --log-level=warning
	$(GO_WASM) build -tags lawcore_core -trimpath $(CORE_GCFLAGS) -ldflags="-s -w" -o $(WASM)/lawcore-core.wasm ./wasm
	cp $(WASM)/lawcore.wasm $(WASM)/lawcore-core.wasm $(SITE)/
	cp $(WASM)/wasm_exec.js $(SITE)/
	# uPlot minified (its module ships unminified), its notice kept on top
	$(ESBUILD) $(UPLOT)/dist/uPlot.esm.js --minify --format=esm --log-level=warning \
		--banner:js="$$(head -8 $(UPLOT)/dist/uPlot.esm.js)" --outfile=$(SITE)/vendor/uPlot.esm.js
	cp $(UPLOT)/dist/uPlot.min.css $(SITE)/vendor/
	cp $(UPLOT)/LICENSE $(SITE)/vendor/uPlot.LICENSE
	go run ./scripts/hashassets -dir $(SITE) lawcore.wasm lawcore-core.wasm wasm_exec.js vendor/uPlot.esm.js vendor/uPlot.min.css style.css
	scripts/build-id.sh $(SITE)
	scripts/sw-manifest.sh $(SITE)
	# after every file of the site is there: _headers names each top-level entry
	go run ./scripts/serve -headers -dir $(SITE) > $(SITE)/_headers
	go run ./scripts/precompress -dir $(SITE)

# core-names: the core as built for the site but with its function names, for profiles and
# tests/browser/measure-compile.mjs (the site's copy has none: -s -w).
core-names:
	mkdir -p $(WASM)
	$(GO_WASM) build -tags lawcore_core -trimpath $(CORE_GCFLAGS) -o $(WASM)/lawcore-core.names.wasm ./wasm

# site: build/site as any static host serves it (docs/deploy.md): the same as build.
site: build

serve: build
	go run ./scripts/serve -dir $(SITE)

# check: the inner loop, under 3 minutes on 2 cores (docs/architecture.md#tests). The Go tests
# run -short (the long statistical tests are left to make test) and, as go test does, only
# when their package or its dependencies changed since they last passed.
check: deps lint wasm
	go vet ./...
	go test -short ./...
ifneq ($(NODE_TESTS),)
	node --test --test-concurrency=$(NODE_TEST_CONCURRENCY) $(NODE_TESTS)
endif

test: deps $(TEST_STEPS)

test-steps:
	@echo $(TEST_STEPS)

vet:
	go vet ./...
	$(GO_WASM) vet ./lawcore/... ./wasm/...
	$(GO_WASM) vet -tags lawcore_core ./wasm

test-go:
	go test ./...
	go test -tags lawcore_core ./wasm

test-wasm:
	$(GO_WASM) test -short -exec="$(WASM_EXEC)" ./lawcore/... ./wasm/...
	$(GO_WASM) test -short -tags lawcore_core -exec="$(WASM_EXEC)" ./wasm

# fuzz-smoke: 10,000 random inputs to each fuzz target, a smoke test within make test's time (their
# seed corpora run in test-go as tests); make fuzz gives each a minute.
fuzz-smoke:
	scripts/fuzz.sh 10000x lawcore

test-node: deps wasm
ifeq ($(NODE_TESTS),)
	@echo "test: no tests in tests/node/"
else
	node --test --test-concurrency=$(NODE_TEST_CONCURRENCY) $(NODE_TESTS)
endif

test-browser: deps build
ifeq ($(BROWSER_TESTS),)
	@echo "test: no tests in tests/browser/ yet: browser tests skipped"
else
	go build -o build/bin/serve ./scripts/serve
	go build -o build/bin/badcorpus ./scripts/badcorpus
	SERVE_BIN=$(CURDIR)/build/bin/serve BADCORPUS_BIN=$(CURDIR)/build/bin/badcorpus node --test tests/browser/suite.mjs
endif

# lint: every file biome.json takes in (files.includes) is formatted as `make fmt` leaves it and
# passes Biome's recommended rules, warnings included. Two are set aside there: useOptionalChain
# (the code writes `a && a.b` where it means a's own falsy value, null or 0, which `a?.b` turns
# into undefined: JSON and === null tell them apart), and noRedundantUseStrict in site/sw.js and
# site/worker.js (classic worker scripts, where 'use strict' is not redundant). Two regular
# expressions that look for control characters say so where they are (biome-ignore).
lint: deps
	$(BIOME) ci --error-on-warnings

# fmt: formats every file biome.json takes in (files.includes), in place.
fmt: deps
	$(BIOME) format --write

fuzz:
	scripts/fuzz.sh 60s lawcore

bench: build
	scripts/bench.sh

clean:
	rm -rf build

distclean: clean
	rm -rf node_modules
