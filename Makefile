# make serve   build everything and serve the calculator on http://127.0.0.1:8080
# make test    every test: the JavaScript's lint, Go natively, Go as wasm under node (-short: the
#              long statistical tests run natively only), fuzz smoke runs, the node CLI, the page
#              in headless Chromium
# make fuzz    every Fuzz target for 60s      make bench   benchmarks and the site's size
# make fmt     format the JavaScript (Biome, biome.json: site/, tests/, scripts/*.mjs, scripts/cli/)
# make lint    check the JavaScript's format and Biome's recommended lint rules (biome ci)
# make site    build/site for a static host (with _headers)
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
# (lawcore, gonum's optimizer and vector loops, math, slices, sort): inlining everywhere makes
# the first view's download larger, none at all makes predictions slower
# (docs/performance.md#the-cores-inlining).
CORE_GCFLAGS := -gcflags=all=-l -gcflags=github.com/lawcalc/annealing/...= -gcflags=gonum.org/v1/gonum/floats/...= -gcflags=gonum.org/v1/gonum/optimize= -gcflags=gonum.org/v1/gonum/internal/asm/...= -gcflags=math= -gcflags=math/bits= -gcflags=slices= -gcflags=sort=

NODE_TESTS    := $(wildcard tests/node/*.test.mjs)
BROWSER_TESTS := $(wildcard tests/browser/*.test.mjs)

.PHONY: all deps build core-names site serve test lint fmt fuzz bench clean distclean

all: build

deps:
	@scripts/install-deps.sh

# build/wasm: lawcore.wasm, lawcore-core.wasm (the first view's small build of the bridge,
# -tags lawcore_core: wasm/methods_core.go) and Go's wasm_exec.js, as the command line
# (scripts/lawcore.mjs) loads them. build/site: the page, uPlot (with its licence) and those two, the large files with
# content-hashed names under assets/ (cached as immutable), _headers, the service worker's list,
# and a brotli and a gzip copy of every text and wasm file (sent by Accept-Encoding).
# The page's modules (site/js) are bundled and minified by esbuild into js/main.js, js/offline.js
# and the chunks they share or load on first use (js/<name>-<hash>.js, with source maps): for the
# first view 7 requests and 57 kB (brotli) instead of 60 requests and 130 kB. js/boot.js is
# bundled on its own as a classic script (a previous build's js/ is removed first).
build: deps
	mkdir -p $(SITE)/vendor $(WASM)
	cp -R site/. $(SITE)/
	chmod -R u+w $(SITE)
	rm -rf $(SITE)/js && mkdir -p $(SITE)/js
	$(ESBUILD) site/js/boot.js --bundle --format=iife --minify --sourcemap --outfile=$(SITE)/js/boot.js --log-level=warning
	$(ESBUILD) site/js/main.js site/js/offline.js --bundle --splitting --format=esm --minify \
		--sourcemap --external:'../vendor/*' --chunk-names='[name]-[hash]' --outdir=$(SITE)/js --log-level=warning
	cp $(GOROOT)/lib/wasm/wasm_exec.js $(WASM)/
	$(GO_WASM) build -trimpath -ldflags="-s -w" -o $(WASM)/lawcore.wasm ./wasm
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

test: deps lint build
	go vet ./...
	$(GO_WASM) vet ./lawcore/... ./wasm/...
	$(GO_WASM) vet -tags lawcore_core ./wasm
	go test ./...
	go test -tags lawcore_core ./wasm
	$(GO_WASM) test -short -exec="$(WASM_EXEC)" ./lawcore/... ./wasm/...
	$(GO_WASM) test -short -tags lawcore_core -exec="$(WASM_EXEC)" ./wasm
	scripts/fuzz.sh 50000x lawcore
ifeq ($(NODE_TESTS),)
	@echo "test: no tests in tests/node/"
else
	node --test $(NODE_TESTS)
endif
ifeq ($(BROWSER_TESTS),)
	@echo "test: no tests in tests/browser/ yet: browser tests skipped"
else
	go build -o build/bin/serve ./scripts/serve
	go build -o build/bin/badcorpus ./scripts/badcorpus
	SERVE_BIN=$(CURDIR)/build/bin/serve BADCORPUS_BIN=$(CURDIR)/build/bin/badcorpus node --test --test-timeout=600000 $(BROWSER_TESTS)
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
