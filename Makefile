# Errand — the two commands that matter:
#   make run    build and start the app (the offline demo model unless configured)
#   make test   install what is missing, then run every test
# Both install their own dependencies and are safe to run twice.

SHELL := /bin/bash
WAILS_VERSION := v2.16.0
GOBIN := $(shell go env GOPATH)/bin
WAILS := $(GOBIN)/wails
# The version: the git tag (git describe), stamped into every binary.
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/errand-app/errand/backend/buildinfo.Version=$(VERSION)
APT_PACKAGES := build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.0-dev \
	libxtst-dev xvfb xauth xdotool imagemagick chromium fonts-liberation fonts-noto-color-emoji bubblewrap
# What `make dist` adds: the NSIS compiler for the Windows installer, and
# desktop-file-validate for the .deb's menu entry.
DIST_APT_PACKAGES := nsis desktop-file-utils
# Wails builds and their windows under Xvfb must not wake dbus/at-spi.
export NO_AT_BRIDGE := 1
export DBUS_SESSION_BUS_ADDRESS := disabled:

.PHONY: run test deps system-deps wails-cli frontend-deps e2e-deps mcp-servers frontend bindings \
	build webmemory first-start build-dev vet test-go test-units test-frontend test-e2e screenshot window-checks bench bench-smoke clean schema \
	dist dist-deps install-check

run: deps frontend build
	./build/bin/errand

# The checks first (vet regenerates the bindings the frontend tests read),
# then the Go and the frontend's tests beside the end-to-end tests: none of
# them keeps both cores busy on its own now (the end-to-end tests wait on
# apps starting and pages loading), so side by side they take less time;
# the two lines take about as long.
test: deps frontend vet
	@$(MAKE) --no-print-directory -j2 -Otarget test-units test-e2e

# The Go tests, then the frontend's (one after the other).
test-units:
	@$(MAKE) --no-print-directory -j1 test-go test-frontend

# The packages install side by side (npm and go install mostly wait on disk
# and on the registry).
deps: system-deps
	@$(MAKE) --no-print-directory -j4 -Otarget wails-cli frontend-deps e2e-deps mcp-servers

# Debian packages: installed only when one is missing.
system-deps:
	@$(call apt_install,$(APT_PACKAGES))

dist-deps:
	@$(call apt_install,$(DIST_APT_PACKAGES))

define apt_install
	missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:" $$missing; \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

wails-cli:
	@if ! "$(WAILS)" version 2>/dev/null | grep -q "$(WAILS_VERSION)"; then \
		echo "Installing the Wails CLI $(WAILS_VERSION)"; \
		go install github.com/wailsapp/wails/v2/cmd/wails@$(WAILS_VERSION); \
	fi

frontend-deps:
	@$(call npm_ci,frontend)

e2e-deps:
	@$(call npm_ci,e2e)

# Real MCP servers from the npm registry, for the Go and end-to-end tests.
mcp-servers:
	@$(call npm_ci,e2e/mcp-servers)

# npm ci in folder $(1), unless its node_modules was installed from the same
# package-lock.json (a copy of which the install leaves beside it).
define npm_ci
	if ! cmp -s $(1)/package-lock.json $(1)/node_modules/.errand-installed-lock; then \
		echo "npm ci in $(1)"; \
		cd $(1) && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.errand-installed-lock; \
	fi
endef

# The bundle only (vite): make vet type-checks the frontend, so make test
# runs tsc once, not also here (about 10 CPU-s).
frontend:
	cd frontend && npm run build

# The wire contract, generated from Go: frontend/wailsjs (the bound methods
# and their types, by Wails) and frontend/src/api/contract.gen.ts (event
# names and payloads, error codes, the values of Go's string types).
GENERATED := frontend/wailsjs frontend/src/api/contract.gen.ts

# Regenerates the wire contract after a change to a bound Go method, a wire
# type, an event, an error code or a string constant the frontend uses.
bindings: wails-cli
	$(WAILS) generate module >/dev/null
	chmod 644 frontend/wailsjs/runtime/*
	go run ./app/cmd/contract

# Regenerates backend/store/schema.sql, the schema a new database is made
# from in one step, from the migrations: run it after adding one (the
# store's test TestANewDatabaseIsWhatEveryMigrationMakes fails until then).
schema:
	go test ./backend/store -run '^TestANewDatabaseIsWhatEveryMigrationMakes$$' -count 1 -update

build: wails-cli webmemory
	$(WAILS) build -s -m -nosyncgomod -skipbindings -ldflags "$(LDFLAGS)" -o errand

# The window's web process extension (app/webmemory), which the
# production build carries: through it the window gives back its memory
# when the tasks stop.
WEBMEMORY := app/webmemory/extension/errand-webmemory.so
webmemory: $(WEBMEMORY)
$(WEBMEMORY): app/webmemory/extension/errand-webmemory.c
	gcc -shared -fPIC -O2 -Wall -Wextra -Wno-unused-parameter -o $@ $< \
		$$(pkg-config --cflags --libs webkit2gtk-web-extension-4.0)

# The production build with the copy of a first start's screen that a
# release shows while its page loads (scripts/first-start.sh takes it from
# this build's own window under Xvfb; the build is then made again with it).
first-start: system-deps build
	./scripts/first-start.sh
	@$(MAKE) --no-print-directory build

# The -tags dev binary serves the frontend and the Go bindings over HTTP, so
# a real browser can drive the real backend (see e2e/).
build-dev:
	go build -tags dev -ldflags "$(LDFLAGS)" -o build/bin/errand-dev .
	go build -o build/bin/mockmodel ./e2e/mockmodel
	go build -o build/bin/e2e-seed ./e2e/seed

vet:
	@bad=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$bad" ]; then echo "gofmt needed:" $$bad; exit 1; fi
	@if ! out=$$(go mod tidy -diff 2>&1); then \
		echo "go.mod/go.sum are not tidy: run 'go mod tidy' and commit the result."; echo "$$out"; exit 1; \
	fi
	go vet ./...
	@$(MAKE) --no-print-directory bindings
	@if [ -n "$$(git status --porcelain -- $(GENERATED))" ]; then \
		echo "The generated wire contract differs from what is committed: run 'make bindings' and commit the result."; \
		git status --short -- $(GENERATED); git --no-pager diff --stat -- $(GENERATED); exit 1; \
	fi
	cd scripts/dist && go vet ./... && go mod tidy -diff
	cd frontend && npm run typecheck

# Tests whose state is their own run in parallel (t.Parallel); -parallel 4
# lets those that wait on a server or a child process overlap on 2 cores.
# The time limit is one no package reaches unless it hangs, however busy
# the machine.
# The backend packages that hold a benchmark (func Benchmark… in a _test.go).
BENCH_PKGS = $(sort $(patsubst %/,./%,$(dir $(shell grep -rl --include='*_test.go' '^func Benchmark' backend))))

# -race instruments every package but the SQLite engine machine-translated
# from C (modernc.org's sqlite/lib, libc and memory; its Go driver and all of
# Errand's code stay instrumented): checking each of the engine's pointer
# steps and memory reads was most of the tests' CPU (backend/store 212 CPU-s
# with it, 26 without; app 120 and 38; archive 68 and 10). Its locks are
# still seen, so a race in Errand's code is still caught.
RACE := -race -gcflags=modernc.org/sqlite/lib=-race=false \
	-gcflags=modernc.org/libc/...=-race=false -gcflags=modernc.org/memory=-race=false

# -vet=off: make test runs make vet first, all of go vet over the same
# packages and their tests, a superset of the checks go test would run again
# (about 4 CPU-s in a fresh clone for the five largest packages alone).
test-go:
	go test $(RACE) -vet=off -count=1 -parallel 4 -timeout 30m ./...
	cd scripts/dist && go test -vet=off -count=1 ./...
	# Benchmarks run once each, at their smallest, to keep them working;
	# their figures come from `make bench`, never from a test. Only the
	# packages that hold one are built again (without -race) for it: under
	# the tests' -race flags, reusing their build, it took as much CPU
	# (39-42 CPU-s against 44) and its agent benchmarks 62-102 s, not 14.
	ERRAND_BENCH_SMOKE=1 go test -vet=off -run '^$$' -bench . -benchtime 1x -count 1 -timeout 30m $(BENCH_PKGS) >/dev/null

test-frontend:
	cd frontend && npm test

# Test files run side by side, one per core, in one Chromium (e2e/run.mjs):
# each starts its own model server and app (own data folder, own port) and
# opens its own browser context (lib/harness.mjs).
test-e2e: build-dev
	cd e2e && xvfb-run -a -s "-screen 0 1280x900x24" node run.mjs

screenshot: deps frontend build build-dev
	./scripts/screenshot.sh

# What only the real (WebKitGTK) window can show: its focus ring, its auto-scroll
# (e2e/windowcheck). It needs no browser tests' or MCP servers' packages.
window-checks: system-deps wails-cli frontend-deps frontend build build-dev
	./scripts/window-checks.sh

# Benchmarks: one table of figures, targets and verdicts (docs/BENCHMARKS.md).
bench: deps
	./e2e/bench/run.sh

# Every benchmark at tiny sizes; fails only when one breaks, never on a time.
bench-smoke: deps
	./e2e/bench/run.sh --smoke

# A release in build/dist: for Linux amd64 a .deb and a .tar.gz, for Windows
# amd64 errand.exe and its NSIS installer, and SHA256SUMS (scripts/dist).
dist: system-deps dist-deps wails-cli frontend-deps frontend first-start
	rm -rf build/dist
	cd scripts/dist && go build -o ../../build/bin/dist .
	./build/bin/dist linux -version "$(VERSION)"
	WAILS="$(WAILS)" LDFLAGS="$(LDFLAGS)" ./build/bin/dist windows -version "$(VERSION)"
	./build/bin/dist sums
	@cat build/dist/SHA256SUMS

# Installs the .deb on this machine, starts it under Xvfb on the demo
# model, removes it, and checks the data folder stayed (as root or sudo).
install-check: dist
	./scripts/install-check.sh

clean:
	rm -rf build/dist build/bin frontend/dist/assets frontend/dist/index.html
