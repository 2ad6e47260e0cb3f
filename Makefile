# Hermes Desk. `make run` and `make test` do all the set-up on a fresh
# Debian/Ubuntu machine; see README.md.
SHELL := /bin/bash
GO    ?= go
VERSION := $(shell cat VERSION)
COMMIT  := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
# sqlite_fts5: full-text search in the journal. webkit2_41: WebKitGTK 4.1.
GOTAGS  := sqlite_fts5,webkit2_41
APPTAGS := desktop,production,$(GOTAGS)
LDFLAGS := -s -w -X github.com/hermesdesk/hermesdesk/backend/version.Version=$(VERSION) -X github.com/hermesdesk/hermesdesk/backend/version.Commit=$(COMMIT)
BIN     := build/bin/hermesdesk
WINBIN  := build/bin/hermesdesk-window
CORE_CFLAGS ?= -Os
export GOFLAGS := -buildvcs=false

.PHONY: run dev test deps deps-test frontend build build-windows test-go deadcode vet-cross test-frontend test-e2e test-desktop test-agents record-transcripts bench \
	bench-desktop bench-usage install uninstall package clean acp-registry contract

## run: install what is missing, build, start the app (the core, which starts the window)
run: deps build
	./$(BIN)

## dev: the window with live-reloading frontend (wails dev; it starts build/bin/hermesdesk as its core)
WAILS ?= $(shell $(GO) env GOPATH)/bin/wails
dev: deps build
	$(WAILS) dev -tags $(GOTAGS)

## contract: regenerate the wire's TypeScript (frontend/src/contract/*.gen.ts) and the run
## tables the frontend's tests read (backend/run/testdata) from the Go; Go tests fail on drift
contract:
	$(GO) run ./backend/contract/gen
	$(GO) test ./backend/run -run 'TestTransitionsFile|TestPayloadsFile' -update

## acp-registry: regenerate the shipped ACP registry snapshot from a fetched copy
## (REGISTRY=DIR: a git checkout of agentclientprotocol/registry; the app never downloads it)
acp-registry:
	$(GO) run ./backend/agents/registry/gen -src "$(REGISTRY)" -o backend/agents/registry/registry.json

## test: install what tests need, run every test
test: deps-test build test-go vet-cross build-windows test-frontend test-e2e test-desktop test-agents
	@echo "make test: all suites passed"

deps:
	scripts/deps.sh run

deps-test:
	scripts/deps.sh test

# npm ci only when the lock file changed since the last install.
frontend/node_modules/.package-lock.json: frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund --loglevel=error

frontend: frontend/node_modules/.package-lock.json
	cd frontend && npm run build

# Two programs (docs/ARCHITECTURE.md §Processes): hermesdesk, the resident
# core + CLI + serve + shims, built without the desktop tag so it maps no
# GTK or WebKit; hermesdesk-window, the Wails window it starts on demand.
# hermesdesk's C (SQLite) is compiled for size: its pages are resident in
# the core and every shim (docs/ARCHITECTURE.md §Memory).
build: frontend
	CGO_CFLAGS="$(CORE_CFLAGS)" $(GO) build -trimpath -tags $(GOTAGS) -ldflags "$(LDFLAGS)" -o $(BIN) .
	$(GO) build -tags $(APPTAGS) -ldflags "$(LDFLAGS)" -o $(WINBIN) .

# The real agent CLIs run once, in test-agents, not again here.
test-go: deadcode
	$(GO) vet -tags $(GOTAGS) ./...
	HERMESDESK_AGENT_TESTS=skip $(GO) test -race -count=1 -timeout 20m -tags $(GOTAGS) ./...

## deadcode: fail on functions neither program reaches (scripts/deadcode-allow.txt keeps, with reasons, what only tests or C reach)
deadcode:
	scripts/deadcode.sh

test-frontend:
	cd frontend && npm run lint && npm test

# Browser end-to-end: Playwright + Debian's Chromium against `hermesdesk serve`.
test-e2e: build
	scripts/test-e2e.sh $(BIN)

# Non-cgo packages must build for the other desktop OSes too. Add yours.
CROSS_PKGS := ./platform/autostart/... ./platform/applog/... ./core/coreapi/... \
	./backend/paths ./backend/version ./backend/run ./backend/adapter ./backend/schedule
vet-cross:
	GOOS=windows CGO_ENABLED=0 $(GO) vet -tags $(GOTAGS) $(CROSS_PKGS)
	GOOS=darwin CGO_ENABLED=0 $(GO) vet -tags $(GOTAGS) $(CROSS_PKGS)

# The Windows build must not rot: the whole app cross-compiles with
# Debian's MinGW (it cannot run here: Wine 8 lacks what Go >= 1.24 needs).
build-windows:
	GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc \
		$(GO) build -tags sqlite_fts5 -ldflags "$(LDFLAGS)" -o build/bin/hermesdesk.exe .
	GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc \
		$(GO) build -tags desktop,production,sqlite_fts5 -ldflags "$(LDFLAGS)" -o build/bin/hermesdesk-window.exe .

# The real binary under Xvfb with a private D-Bus bus and a test tray host
# (test/desktop). Fails in CI rather than skipping when something is missing.
test-desktop:
	$(GO) test -count=1 -timeout 15m -tags $(GOTAGS),desktoptest ./test/desktop/ -v

## bench-desktop: startup times and memory of the real app: core + window, window hidden, window gone; a long session's window memory
bench-desktop: build
	scripts/bench-desktop.sh

## bench-usage: the Usage view's first paint with a year of data (5 cold opens in headless Chromium; target ≤ 300 ms)
bench-usage: build
	scripts/bench-usage.sh

## install: binary, launcher and icons into ~/.local (PREFIX to change)
PREFIX ?= $(HOME)/.local
install: build
	scripts/install.sh install "$(PREFIX)" "$(BIN)"

uninstall:
	scripts/install.sh uninstall "$(PREFIX)"

## package: a .deb and a tarball in out/
package: build
	scripts/package.sh "$(VERSION)" "$(BIN)"

# The real agent CLIs (Claude Code, Codex, Gemini CLI, Hermes Agent and the
# third-party ACP agents: OpenCode, Qwen Code, Copilot CLI, claude-agent-acp,
# codex-acp, Mistral Vibe, Kimi CLI), installed into .tools/ by
# scripts/install-agents.sh, through their adapters against the fake model
# server, and (test/agents) through the whole run engine: service,
# supervisor, shim, journal. With HERMESDESK_AGENT_TESTS=1 a missing CLI fails
# in CI. The app never looks in .tools by itself: it is named explicitly.
# test/agents merges what each agent did into COMPAT_JSON, and the README's
# compatibility table is rewritten from it even when a test failed, so a
# change in any agent shows as a diff of both (git status after the run).
AGENT_PKGS := ./backend/adapter/claude/ ./backend/adapter/codex/ ./backend/adapter/hermes/ ./testkit/fakemodel/agenttest/ ./test/agents/
COMPAT_JSON := test/agents/testdata/compat.json
test-agents:
	scripts/install-agents.sh
	HERMESDESK_TOOLS=$(CURDIR)/.tools HERMESDESK_AGENT_TESTS=1 HERMESDESK_COMPAT=$(CURDIR)/$(COMPAT_JSON) \
	  $(GO) test -race -count=1 -timeout 20m -tags $(GOTAGS) -run '^TestReal' $(AGENT_PKGS); \
	  status=$$?; $(GO) run ./test/agents/compat/gen -in $(COMPAT_JSON) -readme README.md || status=1; exit $$status

## record-transcripts: re-record the Claude Code, Codex and Gemini CLI (ACP usage, rate limit) transcripts in the adapters' testdata from the real CLIs
# The real CLIs (installed into $HERMESDESK_TOOLS, default .tools) play the
# fake model's scenarios; each TestReal* test saves the native lines it saw
# (HERMESDESK_RECORD=1) with temp dirs, ports and clock readings normalised
# (testkit/fakemodel/agenttest), then the golden loop rewrites the
# *.events.jsonl the frontend's fold test replays. Review the diff before
# committing: ids and a CLI's own wording change from one recording to the next.
RECORD_PKGS := ./backend/adapter/claude/ ./backend/adapter/codex/
record-transcripts:
	tools=$${HERMESDESK_TOOLS:-$(CURDIR)/.tools}; \
	HERMESDESK_TOOLS=$$tools scripts/install-agents.sh npm && \
	HERMESDESK_TOOLS=$$tools HERMESDESK_RECORD=1 HERMESDESK_AGENT_TESTS=1 $(GO) test -count=1 -timeout 10m -tags $(GOTAGS) -run '^TestReal' $(RECORD_PKGS) && \
	HERMESDESK_TOOLS=$$tools HERMESDESK_RECORD=1 HERMESDESK_AGENT_TESTS=1 $(GO) test -count=1 -timeout 5m -tags $(GOTAGS) -run '^TestRealGeminiACPUsage$$' ./testkit/fakemodel/agenttest/
	HERMESDESK_AGENT_TESTS=skip $(GO) test -count=1 -tags $(GOTAGS) -run '^TestTranscriptEvents$$' $(RECORD_PKGS) -args -update
	$(GO) test -count=1 -tags $(GOTAGS) -run '^TestTranscripts$$' ./backend/adapter/acp/ -args -update

bench:
	$(GO) test -tags $(GOTAGS) -run '^$$' -bench . -benchmem ./backend/...

clean:
	rm -rf build/bin frontend/dist out
