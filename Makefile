# HotPlex — build, run and test.
#
#   make run    build and start HotPlex with embedded defaults (works offline)
#   make test   install what the tests need, then vet and test everything with -race
#   make bench  benchmarks that print ratios measured in the same run
#   make cluster  a local three-node cluster (PostgreSQL, NATS JetStream)

SHELL := /bin/bash
GO ?= go
CLAUDE_VERSION := 2.1.332
TOOLS := $(CURDIR)/.tools
NPM_DIR := $(TOOLS)/npm
CLAUDE := $(NPM_DIR)/node_modules/.bin/claude
CLAUDE_STAMP := $(NPM_DIR)/.claude-$(CLAUDE_VERSION)
AGENT_SDK_VERSION := 0.3.332
AGENT_SDK_STAMP := $(NPM_DIR)/.claude-agent-sdk-$(AGENT_SDK_VERSION)
BIN := $(CURDIR)/bin/hotplex
WEB := $(CURDIR)/web
WEB_STAMP := $(WEB)/node_modules/.installed
WEB_SRC := $(wildcard $(WEB)/src/*) $(WEB)/index.html $(WEB)/vite.config.ts $(WEB)/tsconfig.json
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all help build run cluster test vet fmt-check bench tools web web-test clean

all: build

# make help: the targets a person runs, with their one-line descriptions
# (the lines that start with "## " above each of them).
help:
	@awk '/^## /{d=substr($$0,4); next} /^[a-z-]+:/{if(d!=""){split($$0,a,":"); printf "  make %-10s %s\n", a[1], d}} {d=""}' $(MAKEFILE_LIST)

## build the hotplex binary (and the web UI it embeds) into bin/
build: web
	$(GO) build -o $(BIN) ./cmd/hotplex

# The browser UI: TypeScript bundled by Vite (both pinned in
# web/package-lock.json) into web/dist, which the binary embeds. Only a
# placeholder of web/dist is committed; the daemon asks for `make web`
# when it finds no index.html.
## bundle the browser UI into web/dist
web: $(WEB)/dist/index.html

$(WEB_STAMP): $(WEB)/package.json $(WEB)/package-lock.json
	cd $(WEB) && npm ci --prefer-offline --no-audit --no-fund --loglevel=error
	@touch $@

$(WEB)/dist/index.html: $(WEB_STAMP) $(WEB_SRC)
	cd $(WEB) && ./node_modules/.bin/tsc --noEmit && ./node_modules/.bin/vite build --logLevel warn
	@touch $(WEB)/dist/.keep

# Unit tests of the UI's Markdown, SSE and metrics code, on Node's runner.
## run the web UI's unit tests on Node's test runner
web-test: $(WEB_STAMP)
	cd $(WEB) && ./node_modules/.bin/vite build --config vite.test.config.ts --logLevel warn && node --test .test-build/

# The real Claude Code CLI, from the npm registry, into a project-local
# folder: the native binary arrives with the optional platform package.
## install everything the tests need: agent CLIs, SDKs, chromium, tmux, postgresql
tools: $(CLAUDE_STAMP) $(AGENT_SDK_STAMP) $(CHROMIUM)

# Debian's chromium, which the browser tests drive.
$(CHROMIUM):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends chromium

$(CLAUDE_STAMP):
	@mkdir -p $(NPM_DIR)
	@test -f $(NPM_DIR)/package.json || echo '{"name":"hotplex-tools","private":true}' > $(NPM_DIR)/package.json
	cd $(NPM_DIR) && npm install --prefer-offline --no-audit --no-fund --no-save --no-package-lock --loglevel=error \
		@anthropic-ai/claude-code@$(CLAUDE_VERSION)
	@$(CLAUDE) --version
	@touch $@

# The official Agent SDK for TypeScript, which the capacity benchmark runs
# side by side with HotPlex (installed with the CLI so that neither prunes
# the other).
$(AGENT_SDK_STAMP): $(CLAUDE_STAMP)
	cd $(NPM_DIR) && npm install --prefer-offline --no-audit --no-fund --no-save --no-package-lock --loglevel=error \
		@anthropic-ai/claude-code@$(CLAUDE_VERSION) @anthropic-ai/claude-agent-sdk@$(AGENT_SDK_VERSION)
	@test -f $(NPM_DIR)/node_modules/@anthropic-ai/claude-agent-sdk/package.json
	@touch $@

# Agent CLIs behind the ACP and Codex providers, each pinned in a folder
# of its own under .tools/npm: an install with --no-save prunes whatever
# else a folder holds, so they do not share one. The tests start the
# platform binaries the packages carry, not their node launchers.
CLAUDE_ACP_VERSION := 0.16.2
OPENCODE_VERSION := 1.18.33
CODEX_VERSION := 0.171.0
CODEX_ACP_VERSION := 0.16.0
GEMINI_VERSION := 0.61.0
QWEN_VERSION := 0.24.4
AGENT_STAMPS := $(NPM_DIR)/claude-acp/.v$(CLAUDE_ACP_VERSION) $(NPM_DIR)/opencode/.v$(OPENCODE_VERSION) \
	$(NPM_DIR)/codex/.v$(CODEX_VERSION) $(NPM_DIR)/codex-acp/.v$(CODEX_ACP_VERSION) \
	$(NPM_DIR)/gemini/.v$(GEMINI_VERSION) $(NPM_DIR)/qwen/.v$(QWEN_VERSION)
tools: $(AGENT_STAMPS)

# $(1): the folder under .tools/npm, $(2): package@version
define npm_agent
	@mkdir -p $(NPM_DIR)/$(1)
	@echo '{"name":"hotplex-tools-$(1)","private":true}' > $(NPM_DIR)/$(1)/package.json
	cd $(NPM_DIR)/$(1) && npm install --prefer-offline --no-audit --no-fund --no-save --no-package-lock --loglevel=error $(2)
	@touch $@
endef

$(NPM_DIR)/claude-acp/.v$(CLAUDE_ACP_VERSION):
	$(call npm_agent,claude-acp,@zed-industries/claude-code-acp@$(CLAUDE_ACP_VERSION))
$(NPM_DIR)/opencode/.v$(OPENCODE_VERSION):
	$(call npm_agent,opencode,opencode-ai@$(OPENCODE_VERSION))
$(NPM_DIR)/codex/.v$(CODEX_VERSION):
	$(call npm_agent,codex,@openai/codex@$(CODEX_VERSION))
$(NPM_DIR)/codex-acp/.v$(CODEX_ACP_VERSION):
	$(call npm_agent,codex-acp,@zed-industries/codex-acp@$(CODEX_ACP_VERSION))
$(NPM_DIR)/gemini/.v$(GEMINI_VERSION):
	$(call npm_agent,gemini,@google/gemini-cli@$(GEMINI_VERSION))
$(NPM_DIR)/qwen/.v$(QWEN_VERSION):
	$(call npm_agent,qwen,@qwen-code/qwen-code@$(QWEN_VERSION))

# The OpenCode SDK, whose client the OpenCode-compatible API is tested
# with; in a folder of its own so that installs elsewhere do not prune it.
OPENCODE_SDK_VERSION := 1.19.3
OPENCODE_SDK_DIR := $(NPM_DIR)/opencode-sdk
OPENCODE_SDK_STAMP := $(OPENCODE_SDK_DIR)/.sdk-$(OPENCODE_SDK_VERSION)
tools: $(OPENCODE_SDK_STAMP)

$(OPENCODE_SDK_STAMP):
	@mkdir -p $(OPENCODE_SDK_DIR)
	@test -f $(OPENCODE_SDK_DIR)/package.json || echo '{"name":"hotplex-opencode-sdk","private":true}' > $(OPENCODE_SDK_DIR)/package.json
	cd $(OPENCODE_SDK_DIR) && npm install --prefer-offline --no-audit --no-fund --no-save --no-package-lock --loglevel=error \
		@opencode-ai/sdk@$(OPENCODE_SDK_VERSION)
	@test -f $(OPENCODE_SDK_DIR)/node_modules/@opencode-ai/sdk/package.json
	@touch $@

# The official MCP TypeScript SDK, whose client the MCP server is tested
# with over stdio and over /mcp; a folder of its own, as above.
MCP_SDK_VERSION := 1.32.2
MCP_SDK_DIR := $(NPM_DIR)/mcp-sdk
MCP_SDK_STAMP := $(MCP_SDK_DIR)/.sdk-$(MCP_SDK_VERSION)
tools: $(MCP_SDK_STAMP)

$(MCP_SDK_STAMP):
	@mkdir -p $(MCP_SDK_DIR)
	@test -f $(MCP_SDK_DIR)/package.json || echo '{"name":"hotplex-mcp-sdk","private":true}' > $(MCP_SDK_DIR)/package.json
	cd $(MCP_SDK_DIR) && npm install --prefer-offline --no-audit --no-fund --no-save --no-package-lock --loglevel=error \
		@modelcontextprotocol/sdk@$(MCP_SDK_VERSION)
	@test -f $(MCP_SDK_DIR)/node_modules/@modelcontextprotocol/sdk/package.json
	@touch $@

# The official ACP TypeScript SDK, whose client drives `hotplex acp` over
# stdio in its tests; a folder of its own, as above.
ACP_SDK_VERSION := 2.4.0
ACP_SDK_DIR := $(NPM_DIR)/acp-sdk
ACP_SDK_STAMP := $(ACP_SDK_DIR)/.sdk-$(ACP_SDK_VERSION)
tools: $(ACP_SDK_STAMP)

$(ACP_SDK_STAMP):
	@mkdir -p $(ACP_SDK_DIR)
	@test -f $(ACP_SDK_DIR)/package.json || echo '{"name":"hotplex-acp-sdk","private":true}' > $(ACP_SDK_DIR)/package.json
	cd $(ACP_SDK_DIR) && npm install --prefer-offline --no-audit --no-fund --no-save --no-package-lock --loglevel=error \
		@agentclientprotocol/sdk@$(ACP_SDK_VERSION)
	@test -f $(ACP_SDK_DIR)/node_modules/@agentclientprotocol/sdk/package.json
	@touch $@

# tmux hosts the terminal backend's programs in windows a person can attach
# to; Debian's, when the machine has none.
.PHONY: tmux
tools: tmux
tmux:
	@command -v tmux >/dev/null || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends tmux; }

# PostgreSQL's server binaries (initdb, postgres), from which the store's
# tests run throwaway servers of their own (internal/pgtest); Debian's,
# when the machine has none. Debian keeps them out of PATH, under
# /usr/lib/postgresql/VERSION/bin.
.PHONY: postgresql
tools: postgresql
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends postgresql; }

# make run: the daemon on 127.0.0.1:8080 (HOTPLEX_LISTEN to change it),
# its data in .hotplex/. Without Anthropic credentials its agents talk to
# HotPlex's built-in offline model. It prints its URL and an admin key.
# It installs only what serving needs (the claude CLI and the web build):
# no apt, no browser, no other agents.
## build and start the daemon on 127.0.0.1:8080 with embedded defaults
run: build $(CLAUDE_STAMP)
	$(BIN) serve --cli-path $(CLAUDE) --data-dir "$(CURDIR)/.hotplex" --admin-key-file "$(CURDIR)/.hotplex/admin.key"

NATS_SERVER := $(TOOLS)/bin/nats-server

# nats-server at the version go.mod pins (the tests embed the same one).
$(NATS_SERVER): go.mod
	$(GO) build -o $(NATS_SERVER) github.com/nats-io/nats-server/v2

# make cluster: PostgreSQL, NATS JetStream and three nodes on
# 127.0.0.1:8081-8083 sharing one admin key, all in .hotplex-cluster/
# (scripts/local-cluster.sh says how to change that). Ctrl-C stops it.
## start a local three-node cluster on 127.0.0.1:8081-8083
cluster: build $(CLAUDE_STAMP) postgresql $(NATS_SERVER)
	HOTPLEX_BIN=$(BIN) NATS_SERVER_BIN=$(NATS_SERVER) HOTPLEX_CLUSTER_ARGS="--cli-path $(CLAUDE)" bash scripts/local-cluster.sh

## go vet every package
vet:
	$(GO) vet ./...

## check that every Go file is gofmt-formatted
fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## install what the tests need, then vet and test everything with -race
test: tools web web-test fmt-check vet
	HOTPLEX_CLAUDE_PATH=$(CLAUDE) $(GO) test -race -count=1 -timeout 12m ./...

## benchmarks that print ratios measured in the same run
bench: tools
	HOTPLEX_CLAUDE_PATH=$(CLAUDE) $(GO) test -run '^$$' -bench . -benchtime 1x -count 1 -timeout 20m ./bench/

## remove built binaries, installed tools and the web build
clean:
	rm -rf $(CURDIR)/bin $(TOOLS) $(WEB)/node_modules $(WEB)/dist/assets $(WEB)/dist/index.html
