# estatekit: `make demo` and `make test` are all a newcomer needs (both install what is missing).

# A recipe that fails half-way (e.g. wasm-pack done, then wasm-opt fails) must not leave a target
# that looks up to date.
.DELETE_ON_ERROR:

SHELL := /bin/bash
export PATH := $(HOME)/.cargo/bin:$(CURDIR)/node_modules/.bin:$(PATH)
PORT ?= 8787
EMULATOR := target/debug/estatekit-emulator
# js/README.md: the package's own README (build-pkg.sh copies it over wasm-pack's copy of README.md).
PKG_SOURCES := $(shell find src core/src web/src js emulator/src testing/src events/src webhooks/src vocab/src -type f) Cargo.toml Cargo.lock \
  js/README.md core/Cargo.toml web/Cargo.toml emulator/Cargo.toml testing/Cargo.toml events/Cargo.toml webhooks/Cargo.toml vocab/Cargo.toml scripts/build-pkg.sh \
  scripts/lean-toolchain.sh scripts/wasm-build.sh scripts/embed-wasm.mjs docs/openapi.json docs/messages.graphql

# Browser engines of test-browser and test-consumers: `make test-browser BROWSER=firefox` (or
# BROWSER=chromium, BROWSER=webkit) runs one alone; all three by default. Debian's headless
# Chromium and Firefox ESR and WebKitGTK's MiniBrowser (under Xvfb), each through its own
# WebDriver (webdriver.json keeps them off the network).
BROWSER ?= chromium firefox webkit
ENGINES := chromium firefox webkit
$(foreach b,$(BROWSER),$(if $(filter $(b),$(ENGINES)),,$(error BROWSER=$(b): use one or more of $(ENGINES))))
# geckodriver: GECKODRIVER from the environment, else the one scripts/setup.sh installs.
GECKODRIVER ?= $(HOME)/.cargo/bin/geckodriver
# wasm-bindgen-test-runner takes GECKODRIVER before CHROMEDRIVER: each engine sees only its own.
WASM_TEST_ENV := CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=$(CURDIR)/scripts/wasm-test-runner.sh WASM_BINDGEN_TEST_TIMEOUT=300
DRIVER_ENV_chromium := -u GECKODRIVER CHROMEDRIVER=/usr/bin/chromedriver
# MOZ_DISABLE_NONLOCAL_CONNECTIONS=1 (inherited by Firefox from geckodriver; moz:firefoxOptions'
# env is applied on Android only): Firefox refuses every non-loopback connection, and honours
# webdriver.json's services.settings.server (ignored otherwise on release builds), so it makes
# no DNS look-up either (checked with strace: loopback connections only).
FIREFOX_ENV := MOZ_DISABLE_NONLOCAL_CONNECTIONS=1
DRIVER_ENV_firefox := -u CHROMEDRIVER GECKODRIVER=$(GECKODRIVER) $(FIREFOX_ENV)
# WebKit: WebKitWebDriver (SAFARIDRIVER, after GECKODRIVER and before CHROMEDRIVER in the
# runner's order) starts WebKitGTK's MiniBrowser --automation, which has no headless mode: the
# run gets a virtual display from xvfb-run -a (a free display number). scripts/webkit-webdriver.sh
# starts the driver (WEBKITDRIVER, Debian's by default) with proxy variables that keep the
# browser's requests on loopback (the runner sends no capabilities to this driver, so
# webdriver.json's webkitgtk:browserOptions serve the consumers; the driver's default is the same).
WEBKITDRIVER ?= /usr/bin/WebKitWebDriver
DRIVER_ENV_webkit := -u CHROMEDRIVER -u GECKODRIVER SAFARIDRIVER=$(CURDIR)/scripts/webkit-webdriver.sh WEBKITDRIVER=$(WEBKITDRIVER)
DISPLAY_chromium :=
DISPLAY_firefox :=
DISPLAY_webkit := xvfb-run -a

.PHONY: setup emulator pkg demo test lint test-native test-browser test-types clean generate

# The generated files (scripts/generate.sh): from the error model (core/src/error.rs),
# web/src/api_error.d.ts and the GENERATED block of js/api_error.js; from the operation table
# (vocab/src/operations.rs, vocab/src/query.rs), the GENERATED blocks of js/query.js and
# js/query.d.ts. core/tests/generated.rs fails when one is stale.
generate:
	scripts/generate.sh

setup:
	@scripts/setup.sh

# --workspace: the emulator with the workspace's features, as `cargo test --workspace` built it,
# so that it is reused rather than rebuilt (its binary is the workspace's only one). --examples
# (the workspace has none, so nothing more is built): with it cargo resolves features with the
# dev-dependencies, as `cargo test` does (the emulator's reqwest `multipart`, tokio's `macros`...);
# without it the binary that test-native built was compiled again with fewer features (reqwest,
# async-graphql, the emulator: 17.6 s of the CI run of 2026-11-29, in test-browser-in-process).
emulator:
	cargo build --workspace --bins --examples

# pkg/: wasm-bindgen's output as emitted (glue estatekit_wasm.js/.d.ts), the module after
# wasm-opt -Oz, the wrapper (js/*.js, js/*.d.ts, js/package.json) copied as is, and the embedded
# modules of the server entries (scripts/build-pkg.sh says which file is what).
pkg: pkg/estatekit_wasm_bg.wasm

# The documentation the package ships (scripts/pack-docs.mjs copies it into pkg/).
PKG_SOURCES += $(wildcard docs/*.md) CHANGELOG.md scripts/pack-docs.mjs

pkg/estatekit_wasm_bg.wasm: $(PKG_SOURCES)
	scripts/build-pkg.sh

# The demo at one address (scripts/demo.mjs): the emulator (serving www/ and pkg/) behind a small
# Node server of the demo that adds its live events (a webhook receiver, an event log and a
# stream route made of pkg/'s estatekit/webhooks and estatekit/live: the page's Live tab).
demo: setup emulator pkg
	@echo "estatekit demo: open http://127.0.0.1:$(PORT)/ (Ctrl-C stops it)"
	ESTATEKIT_EMULATOR_BIN=$(EMULATOR) node scripts/demo.mjs --port $(PORT)

# The demo for any static host (no emulator): target/demo-static/, see scripts/demo-static.sh.
.PHONY: demo-static
demo-static: pkg
	@scripts/demo-static.sh

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	# estatekit-core alone, without its `js` feature (the workspace build turns it on through web):
	# plain Rust and serde, no JavaScript binding crate.
	cargo clippy -p estatekit-core --all-targets --features auth -- -D warnings
	# Its OpenAPI generator (the `schema` feature: schemars, native only).
	cargo clippy -p estatekit-core --all-targets --features schema -- -D warnings
	# With the stack floor of `make bench` (bench/floor/: wasm32 only, the same crates and features).
	cargo clippy -p estatekit -p estatekit-core -p estatekit-web -p estatekit-bench-floor --target wasm32-unknown-unknown --all-targets -- -D warnings
	cargo clippy -p estatekit -p estatekit-web --target wasm32-unknown-unknown --lib --features dom-emulation,auth,server -- -D warnings
	cargo clippy -p estatekit-testing --target wasm32-unknown-unknown -- -D warnings
	cargo clippy -p estatekit-webhooks -p estatekit-events --target wasm32-unknown-unknown --all-targets -- -D warnings

test-native:
	cargo test --workspace

# Every wasm-bindgen-test suite (tests/*.rs) in each engine of BROWSER, one after the other,
# against one emulator on a free loopback port. Its address is compiled into the test crates
# (option_env!), so one emulator for every engine builds them once, not once per engine; a
# test tells its own requests by its own account or marker. `make test-browser-firefox` alone
# starts its own emulator. The seconds each engine took are printed (scripts/timed-make.sh).
test-browser: emulator
	scripts/with-emulator.sh --second-origin --rate-limit 0 -- env MAKE="$(MAKE) SHARED_EMULATOR=1" \
	  scripts/timed-make.sh $(addprefix test-browser-,$(BROWSER))

.PHONY: $(addprefix test-browser-,$(ENGINES))
$(addprefix test-browser-,$(ENGINES)): test-browser-%: emulator
	@echo "test-browser: $* (wasm-bindgen-test, tests/*.rs)"
	$(if $(SHARED_EMULATOR),,scripts/with-emulator.sh --second-origin --rate-limit 0 --) \
	  $(DISPLAY_$*) env $(DRIVER_ENV_$*) $(WASM_TEST_ENV) cargo test -p estatekit --target wasm32-unknown-unknown --no-fail-fast --test '*'

# The client's conformance suites (documents, messages, webhooks) and its memory tests against
# the in-process host: the test page imports estatekit/testing from the emulator's /pkg/ and
# every client sends through service.fetch (tests/common: ESTATEKIT_TEST_HOST=in-process).
# Chromium; tests of the browser's network stack (dropped connections, redirects, upload
# progress) say they are skipped.
.PHONY: test-browser-in-process
test-browser-in-process: pkg emulator
	@echo "test-browser-in-process: chromium (tests/{documents,messages,webhooks,memory}.rs through estatekit/testing)"
	ESTATEKIT_TEST_HOST=in-process scripts/with-emulator.sh --rate-limit 0 --static /pkg=pkg -- \
	  env $(DRIVER_ENV_chromium) $(WASM_TEST_ENV) cargo test -p estatekit --target wasm32-unknown-unknown --no-fail-fast \
	  --test documents --test messages --test webhooks --test memory

# The published interface (docs/openapi.json, docs/messages.graphql; `make generate` writes
# them): the OpenAPI file is what the operation table and the model write (core/tests/openapi.rs),
# valid OpenAPI 3.1 with its JSON Schema 2020-12 dialect (openapi-spec-validator, in a venv under
# target/, installed once), clean under Redocly CLI's lint (its recommended rules, each an error:
# redocly.yaml; its telemetry and update check off: nothing leaves the machine), and every answer of the emulator is valid against it
# (scripts/openapi-check.py calls each operation of the file on an emulator of its own). The
# GraphQL schema's freshness is emulator/tests/graphql_sdl.rs (test-native).
OPENAPI_VENV := target/openapi-venv
OPENAPI_SPEC_VALIDATOR := 0.9.0
.PHONY: test-openapi
$(OPENAPI_VENV)/installed-$(OPENAPI_SPEC_VALIDATOR):
	rm -rf $(OPENAPI_VENV)
	python3 -m venv $(OPENAPI_VENV)
	$(OPENAPI_VENV)/bin/pip install --quiet --disable-pip-version-check openapi-spec-validator==$(OPENAPI_SPEC_VALIDATOR)
	touch $@

test-openapi: emulator $(OPENAPI_VENV)/installed-$(OPENAPI_SPEC_VALIDATOR)
	cargo test -p estatekit-core --features schema --test openapi
	$(OPENAPI_VENV)/bin/openapi-spec-validator docs/openapi.json
	@[ -x node_modules/.bin/redocly ] || npm ci
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true redocly lint docs/openapi.json --format=summary
	scripts/with-emulator.sh --rate-limit 0 -- $(OPENAPI_VENV)/bin/python scripts/openapi-check.py docs/openapi.json

# The package (issue 7): type tests, golden .d.ts, consumer smoke tests, API reference.
# test-types: the type tests of the public API, the wrapper's JavaScript type-checked (checkJs)
# against the declarations, and EVENT_TYPES/DOCUMENT_TYPES equal to the Rust unions.
.PHONY: test-golden golden test-consumers docs
test-types: pkg
	tsc -p tests/types/tsconfig.json --strict --noEmit
	tsc -p tests/types/tsconfig.wrapper.json
	node --test tests/types/constants.test.mjs

test-golden: pkg
	node tests/types/golden.mjs

# Documentation (issue 19). test-readme: every ```ts example of README.md, compiled against
# pkg/estatekit.d.ts with tsc --strict --noEmit. test-links: no Markdown file links outside the
# repository (nor to a file or heading it does not have).
.PHONY: test-readme test-links
test-readme: pkg
	node tests/types/readme.mjs

test-links:
	node tests/docs/links.mjs
	node --test tests/docs/rules.test.mjs
	@if [ -f pkg/package.json ]; then node tests/docs/links.mjs --packed; else echo "packed links: no pkg/ (make test-packed-docs builds it first)"; fi

# The Markdown of the packed tarball (README, EMULATOR.md, docs/*.md, CHANGELOG.md): every link
# resolves inside it (tests/docs/links.mjs --packed; in make test through
# tests/consumers/package.test.mjs).
.PHONY: test-packed-docs
test-packed-docs: pkg
	node tests/docs/links.mjs --packed

# The documents' current figures (behind <!-- figure:KEY --> markers, docs/figures.md) within 1 %
# of what `make size` measures (scripts/figures.mjs).
.PHONY: test-figures
test-figures: pkg
	node --test tests/docs/figures.test.mjs

# The client in Node against stand-in services (its `fetch` option): answers exactly as sent
# whatever the token, the token hidden in errors and events (tests/node/).
.PHONY: test-node
test-node: pkg
	node --test tests/node/

golden: pkg
	node tests/types/golden.mjs --update

# The API report (issue 54): every entry's public declarations (pkg/*.d.ts of each entry of
# js/package.json's "exports"), as API Extractor reads them, one file per entry in api/
# (scripts/api-report.mjs). test-api makes them again in a temporary folder and fails, with the
# difference, when api/ differs; api-report writes api/ (review and commit it with the change).
.PHONY: test-api api-report
test-api: pkg
	node scripts/api-report.mjs --check

api-report: pkg
	node scripts/api-report.mjs

# Packs pkg/ (npm pack) for the consumer projects, then runs them against their own emulators;
# the browser pages run in each engine of BROWSER (tests/consumers/browsers.mjs).
test-consumers: pkg emulator
	@[ -d node_modules/playwright-core ] && [ -d node_modules/selenium-webdriver ] || npm ci
	node -e 'import("./tests/consumers/lib.mjs").then((m) => console.log("packed", m.pack().filename))'
	ESTATEKIT_BROWSERS="$(BROWSER)" GECKODRIVER=$(GECKODRIVER) WEBKITDRIVER=$(WEBKITDRIVER) \
	  $(if $(filter webkit,$(BROWSER)),$(DISPLAY_webkit)) node --test --test-concurrency=1 tests/consumers/*.test.mjs

docs: pkg
	typedoc --entryPoints pkg/estatekit.d.ts --tsconfig tests/types/tsconfig.json --out target/docs \
	  --name estatekit --readme none --disableSources --treatWarningsAsErrors
	@echo "API reference: target/docs/index.html"

# End-to-end tests of the demo page (www/) in the system Chromium: against their own emulator, in
# the page (estatekit/testing), target/demo-static/ from a plain static server, and the Live tab
# against what `make demo` runs (scripts/demo.mjs, tests/e2e/live.test.mjs).
.PHONY: test-e2e
test-e2e: pkg emulator demo-static
	@[ -d node_modules/playwright-core ] || npm ci
	node --test tests/e2e/

# Parity (issue 18): the emulator's integration tests (the same bodies and flags) against its
# WebAssembly host, estatekit/testing from pkg/, served on loopback by the package's bin
# `estatekit-emulator` (node pkg/emulator-cli.mjs, as npx runs it; issue 40); test-native runs
# them against the native server. (`--workspace`, as test-native: the same features, so the test
# binaries are reused, not rebuilt.)
.PHONY: test-parity
test-parity: pkg
	EMULATOR_HOST=wasm cargo test --workspace --no-fail-fast --test rest --test graphql --test admin --test faults --test malformed --test oauth --test controls

# Each in turn through scripts/timed-make.sh, which prints the seconds each took (and a summary at
# the end, also when one fails): where the minutes go.
TEST_TARGETS := setup lint test-links test-native test-openapi pkg lean-check test-api size-check test-figures test-node test-parity test-browser-in-process test-types test-golden test-readme test-consumers test-browser test-e2e
test:
	@MAKE="$(MAKE)" scripts/timed-make.sh $(TEST_TARGETS)
	@echo "make test: all suites passed"

# The suites with every core kept busy beside them, as a parallel build would (scripts/loaded.sh):
# `make test-loaded TARGETS="test-browser test-e2e"`; required before submitting a change to
# tests or timing (CONTRIBUTING.md).
TARGETS ?= test-browser test-e2e
.PHONY: test-loaded
test-loaded:
	scripts/loaded.sh $(MAKE) --no-print-directory $(TARGETS)

clean:
	cargo clean
	rm -rf pkg node_modules

# Benchmark and size budget (see bench/README.md). Timings are printed, never asserted.
# size: gzip -9 of the .wasm + the main entry's .js minified by esbuild (scripts/size.mjs).
.PHONY: bench bench-emulator bench-floor size size-check pkg-named size-top profile
BENCH_EMULATOR := target/bench-emulator/estatekit-emulator
TWIGGY_VERSION := 0.8.0

bench-emulator:
	cargo build -p estatekit-emulator --profile bench-emulator

# The stack floor (bench/floor/, issue 63) in target/bench-floor/, built as the shipped module is.
bench-floor:
	scripts/build-floor.sh

bench: pkg bench-emulator bench-floor
	@[ -d node_modules/playwright-core ] && [ -d node_modules/zod ] && [ -d node_modules/@opentelemetry/sdk-metrics ] || npm ci
	ESTATEKIT_EMULATOR_BIN=$(BENCH_EMULATOR) node bench/run.mjs

# The same package with its function names kept (target/pkg-named), for twiggy and profiles.
pkg-named: $(PKG_SOURCES)
	scripts/build-pkg.sh --keep-names

# Where the module's bytes are, by function (twiggy on the names-kept build).
size-top: pkg-named
	@twiggy --version 2>/dev/null | grep -qx "twiggy $(TWIGGY_VERSION)" || cargo install twiggy --version $(TWIGGY_VERSION) --locked
	twiggy top -n 40 target/pkg-named/estatekit_wasm_bg.wasm
	node bench/size-by-crate.mjs

# estatekit/otel's memory over 20,000 instrumented Node calls, spans exported in batches, the heap
# after GC at the start, the middle and the end (bench/otel-soak.mjs; printed, never asserted; not
# part of `make test`). SOAK_CALLS=N for another count.
.PHONY: otel-soak
otel-soak: pkg emulator
	@[ -d node_modules/@opentelemetry/sdk-trace-base ] && [ -d node_modules/@opentelemetry/context-async-hooks ] || npm ci
	node --expose-gc bench/otel-soak.mjs

# Builds of the package compared in one page, alternated with the peer (bench/compare.mjs), e.g.
# make compare BUILDS="before=target/compare/before now=pkg" COMPARE_ARGS="--in-page --batch 200"
.PHONY: compare
compare: pkg bench-emulator
	@[ -d node_modules/playwright-core ] && [ -d node_modules/zod ] || npm ci
	ESTATEKIT_EMULATOR_BIN=$(BENCH_EMULATOR) node bench/compare.mjs $(COMPARE_ARGS) $(BUILDS)

# Where a call's time goes: `make profile SCENARIO=listDocuments` (bench/profile.mjs).
SCENARIO ?= listWebhooks
profile: pkg-named bench-emulator
	@[ -d node_modules/playwright-core ] && [ -d node_modules/zod ] || npm ci
	ESTATEKIT_EMULATOR_BIN=$(BENCH_EMULATOR) node bench/profile.mjs $(SCENARIO)

size: pkg
	@node scripts/size.mjs --write

size-check: pkg
	@node scripts/size.mjs --check

# Every module the package ships built lean, none carrying core's panic messages
# (scripts/lean-check.mjs; CONTRIBUTING.md, "The lean build").
.PHONY: lean-check lean-steps
lean-check: pkg
	@node scripts/lean-check.mjs pkg

# The main module's bytes at each step of the lean build, and two steps not kept
# (bench/lean-steps.sh; about 2 minutes a step; not part of make test).
lean-steps: setup
	bench/lean-steps.sh
