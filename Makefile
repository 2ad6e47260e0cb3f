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
export GOFLAGS := -buildvcs=false

.PHONY: run test deps deps-test frontend build test-go test-frontend test-desktop test-agents bench clean

## run: install what is missing, build, start the app
run: deps build
	./$(BIN)

## test: install what tests need, run every test
test: deps-test build test-go test-frontend test-desktop
	@echo "make test: all suites passed"

deps:
	scripts/deps.sh run

deps-test:
	scripts/deps.sh test

frontend:
	cd frontend && npm run build

build: frontend
	$(GO) build -tags $(APPTAGS) -ldflags "$(LDFLAGS)" -o $(BIN) .

test-go:
	$(GO) vet -tags $(GOTAGS) ./...
	$(GO) test -race -count=1 -tags $(GOTAGS) ./...

test-frontend:
	cd frontend && npm test

test-desktop:
	@echo "test-desktop: (filled in by the desktop shell work)"

bench:
	$(GO) test -tags $(GOTAGS) -run '^$$' -bench . -benchmem ./backend/...

clean:
	rm -rf build/bin frontend/dist
