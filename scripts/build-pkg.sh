#!/usr/bin/env bash
# Builds pkg/, the npm package:
# 1. the crate built for wasm32 by the lean toolchain (below), then wasm-bindgen (--target web,
#    out-name estatekit_wasm): wasm-bindgen's glue estatekit_wasm.js + estatekit_wasm.d.ts, kept
#    exactly as emitted, the module estatekit_wasm_bg.wasm;
# 2. wasm-opt -Oz (pinned npm binaryen) on the module, in place; imports and exports keep their
#    names, so the glue needs no change;
# 3. the public wrapper (js/client.js, js/loader.js, the entries js/estatekit.js for browsers and
#    js/estatekit.node.js for servers), its declarations js/estatekit.d.ts and js/package.json,
#    copied as they are; and, for the server entry, the module built with the `dom-emulation`
#    feature (glue estatekit_wasm_node.js) and its bytes in estatekit_wasm_embedded.js
#    (scripts/embed-wasm.mjs); the Cloudflare Workers entries (`workerd` condition:
#    js/estatekit.workerd.js, js/auth.workerd.js) import that module's .wasm compiled;
# 4. the `estatekit/testing` entry: the emulator's in-process host (crate testing/) through
#    wasm-bindgen (glue estatekit_testing_wasm.js/.d.ts as emitted) and wasm-opt -O1, its
#    wrapper (js/testing_service.js, entries js/testing.js, js/testing.node.js and
#    js/testing.workerd.js), js/testing.d.ts and estatekit_testing_wasm_embedded.js. The main
#    entry never imports it. The package's bin `estatekit-emulator` (js/emulator-cli.mjs) serves
#    it on a local port under Node.
# 5. the `estatekit/webhooks` entry: its own small module (crate webhooks/, which does not link the
#    main crate) through wasm-bindgen (glue estatekit_webhooks_wasm.js/.d.ts as emitted) and
#    wasm-opt -Oz; its wrapper (js/webhooks_receiver.js, entries js/webhooks.js,
#    js/webhooks.node.js and js/webhooks.workerd.js), js/webhooks.d.ts and
#    estatekit_webhooks_wasm_embedded.js.
# 6. the `estatekit/store` entry: plain JavaScript, no module (js/store.js, js/store.d.ts), and
#    js/checked_client.js, which the server entries of estatekit import (no entry exports it).
# 7. the `estatekit/query` entry (TanStack Query option factories): js/query.js and
#    js/query.d.ts, copied; plain JavaScript with no module and no dependency.
# 8. the `estatekit/otel` entry (OpenTelemetry traces and metrics): plain JavaScript whose only
#    imports are the optional peers @opentelemetry/api and @opentelemetry/core (js/otel.js and its
#    parts js/otel_*.js, js/otel.d.ts), and otel_routes.js, its table of the client's requests,
#    generated from vocab/src/operations.rs. The main entry never imports it.
#
# Every shipped module (the main, server, testing and webhooks modules, and so their embedded and
# fallback copies) is built lean: the standard library rebuilt for it (-Zbuild-std) with panics
# that abort at once (-Cpanic=immediate-abort: no panic message is formatted, a panic is the
# `unreachable` trap) and no source locations (-Zlocation-detail=none), by Debian's rustc-web 1.96
# that scripts/lean-toolchain.sh installs and checks, in a target directory of its own
# (target/lean), with RUSTC_BOOTSTRAP=1 for that command alone; the standard library with its
# `optimize_for_size` feature (its smaller variants of sorting, formatting and searching).
# Cargo.toml holds nothing unstable: contributors' builds, tests and clippy use the ordinary
# toolchain. `PANIC_MESSAGES=1 scripts/build-pkg.sh` builds the same package with the ordinary
# toolchain, panic messages kept (for diagnosing a trap; never shipped: `make lean-check`, part of
# `make test`, refuses it).
#
# `scripts/build-pkg.sh --keep-names` builds the same package into target/pkg-named/ with the
# function names kept (wasm-bindgen --keep-debug, wasm-opt -Oz -g): for twiggy (`make size-top`)
# and the CPU profiles of `make profile`. Its code is the shipped module's; only names are added.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

out=pkg
strip=(--strip-debug --strip-producers)
if [ "${1:-}" = --keep-names ]; then
  out=target/pkg-named
  strip=(-g)
fi
# cargo_wasm, bindgen and optimize (and $wasm_dir): scripts/wasm-build.sh, shared with the stack
# floor of `make bench` (scripts/build-floor.sh), so that both are built alike.
source scripts/wasm-build.sh
# vocab_bin OUT NAME: what estatekit-vocab's bin NAME prints, written to OUT. Built as
# `cargo test --workspace` (test-native) and `make emulator` build it: the workspace's features
# with its dev-dependencies (--examples; the workspace has none), so the three share the compiled
# crates; `cargo run -p estatekit-vocab` resolved features for that package alone and compiled
# serde and the vocab crate again for itself (scripts/local.mjs, workspaceBin, says the same).
vocab_bin() {
  cargo build -q --workspace --bin "$2" --examples
  "target/debug/$2" > "$1"
}
rm -rf "$out" # no file of an earlier build (e.g. a snippet under an old hash) is packed
cargo_wasm --lib
keep=()
[ "$out" = pkg ] || keep=(--keep-debug)
bindgen estatekit_wasm "$out" "$wasm_dir/estatekit.wasm" "${keep[@]}"
optimize -Oz "$out/estatekit_wasm_bg.wasm" "$out/estatekit_wasm_bg.wasm"
# The ApiError class and the base URL rule: wasm-bindgen copies js/api_error.js and js/base_url.js
# beside the glue (snippets/js/, where the module's bindings import them); the wrapper's
# ./api_error.js and ./base_url.js are those same files, one module instance each.
if [ "$out" = pkg ]; then
  printf '%s\n' '// The ApiError class: the file the module imports (js/api_error.js in the repository).' \
    'export * from "./snippets/js/api_error.js";' > "$out/api_error.js"
  printf '%s\n' '// The base URL rule: the file the module imports (js/base_url.js in the repository).' \
    'export * from "./snippets/js/base_url.js";' > "$out/base_url.js"
else
  cp js/api_error.js js/base_url.js "$out/"
fi
# The closed lists' JavaScript constants, generated from their one definition (vocab/src/lib.rs).
vocab_bin "$out/vocab.js" vocab-js
cp js/paging.js js/client.js js/loader.js js/embedded.js js/estatekit.js js/estatekit.node.js js/estatekit.d.ts js/package.json "$out/"
cp js/README.md "$out/README.md"
# The emulator's documentation (`npx estatekit-emulator`), linked from the README.
cp js/EMULATOR.md "$out/EMULATOR.md"
# The documentation the README links (docs/*.md, CHANGELOG.md), its links resolved in the package
# (scripts/pack-docs.mjs: a link to a file the package does not ship goes to the repository).
node scripts/pack-docs.mjs "$out"
# The service's interface as published (`estatekit/openapi.json`, `estatekit/messages.graphql`):
# generated from the operation table and the model by `make generate` (docs/).
cp docs/openapi.json docs/messages.graphql "$out/"

# 3b. The server entry's module: the same crate with the `dom-emulation` feature (uploads from DOM
#     emulations, which exist in Node only), the `auth` feature (estatekit/auth: the token
#     provider, servers only) and the `server` feature (rateLimit.store: the rate budget shared
#     through a store), its glue estatekit_wasm_node.js/.d.ts as emitted, its
#     bytes embedded in estatekit_wasm_embedded.js. The .wasm file ships too: the glue names it in
#     a `new URL(...)` that bundlers resolve when they build a server bundle.
if [ "$out" = pkg ]; then
  node_out=target/pkg-node
  rm -rf "$node_out"
  cargo_wasm --lib --features dom-emulation,auth,server
  bindgen estatekit_wasm_node "$node_out" "$wasm_dir/estatekit.wasm"
  optimize -Oz "$node_out/estatekit_wasm_node_bg.wasm" "$out/estatekit_wasm_node_bg.wasm"
  cp "$node_out/estatekit_wasm_node.js" "$node_out/estatekit_wasm_node.d.ts" "$out/"
  # The node glue's snippets (the ApiError class, as the browser glue's): the same files.
  cp -r "$node_out/snippets" "$out/"
  node scripts/embed-wasm.mjs "$out/estatekit_wasm_node_bg.wasm" "$out/estatekit_wasm_embedded.js"
  # estatekit/auth: the token provider lives in this module (feature `auth`); its browser entry
  # only throws (a client secret must never reach a browser).
  cp js/auth_tokens.js js/auth.js js/auth.node.js js/auth.d.ts "$out/"
  # 3d. Cloudflare Workers (the `workerd` condition): the main entry and estatekit/auth import this
  #     same module (estatekit_wasm_node_bg.wasm) as a compiled module, one instance for both.
  cp js/estatekit.workerd.js js/auth.workerd.js "$out/"
fi

# 3c. The browser entry's fallback (js/loader.js): the browser module's bytes embedded in
#     estatekit_wasm_fallback.js, which estatekit.js imports lazily when its .wasm file gives no
#     module (a bundler that emits no asset, a dev server's pre-bundling). estatekit/testing and
#     estatekit/webhooks use their *_embedded.js files for that: one module serves both entries.
if [ "$out" = pkg ]; then
  node scripts/embed-wasm.mjs "$out/estatekit_wasm_bg.wasm" "$out/estatekit_wasm_fallback.js"
fi

# 4. estatekit/testing (not with --keep-names: that build is for the main module's profiles).
if [ "$out" = pkg ]; then
  cargo_wasm -p estatekit-testing --lib
  bindgen estatekit_testing_wasm "$out" "$wasm_dir/estatekit_testing.wasm"
  # -O1, not -Oz: on this module (2026-11-23) -O1 took 11 s and gave 631,366 bytes gzipped,
  # -Os 38 s and 670,709, -Oz 43 s and 673,205 (larger raw modules of -O1 compress better).
  optimize -O1 "$out/estatekit_testing_wasm_bg.wasm" "$out/estatekit_testing_wasm_bg.wasm"
  cp js/testing_service.js js/testing.js js/testing.node.js js/testing.workerd.js js/testing.d.ts js/emulator-cli.mjs "$out/"
  chmod +x "$out/emulator-cli.mjs"
  node scripts/embed-wasm.mjs "$out/estatekit_testing_wasm_bg.wasm" "$out/estatekit_testing_wasm_embedded.js"
fi

# 5. estatekit/webhooks (not with --keep-names either).
if [ "$out" = pkg ]; then
  cargo_wasm -p estatekit-webhooks --lib
  bindgen estatekit_webhooks_wasm "$out" "$wasm_dir/estatekit_webhooks.wasm"
  optimize -Oz "$out/estatekit_webhooks_wasm_bg.wasm" "$out/estatekit_webhooks_wasm_bg.wasm"
  node scripts/embed-wasm.mjs "$out/estatekit_webhooks_wasm_bg.wasm" "$out/estatekit_webhooks_wasm_embedded.js"
  printf '%s\n' '// The WebhookEventError class: the file the module imports (js/webhook_event_error.js in the repository).' \
    'export * from "./snippets/js/webhook_event_error.js";' > "$out/webhook_event_error.js"
  cp js/webhooks_receiver.js js/webhooks.js js/webhooks.node.js js/webhooks.workerd.js js/webhooks.d.ts js/node_listener.js "$out/"
fi

# 6. estatekit/store: plain JavaScript (what several processes share; no module of its own).
if [ "$out" = pkg ]; then
  # checked_client.js: the server entries' Client class, its stores checked (internal, no entry).
  # redis_send.js: the one raw-command sender of estatekit/store and estatekit/live (internal).
  cp js/store.js js/store.d.ts js/checked_client.js js/redis_send.js "$out/"
fi

# 6b. estatekit/live (event logs, the stream route) and estatekit/subscribe (the browser side,
#     with estatekit/subscribe/query, its TanStack Query helper): plain JavaScript, no module.
if [ "$out" = pkg ]; then
  cp js/live.js js/live.d.ts js/live_log.js js/live_stream.js js/node_listener.js "$out/"
  cp js/subscribe.js js/subscribe.d.ts js/subscribe_query.js js/subscribe_query.d.ts "$out/"
fi

# 7. estatekit/query: TanStack Query option factories, plain JavaScript (no module of its own).
if [ "$out" = pkg ]; then
  cp js/query.js js/query.d.ts "$out/"
fi

# 7b. estatekit/token: the browser's side of estatekit/auth's token route, plain JavaScript (no
#     module of its own, nothing added to the main entry).
if [ "$out" = pkg ]; then
  cp js/token.js js/token.d.ts "$out/"
fi

# 8. estatekit/otel: plain JavaScript (no module of its own); the requests' templates generated
#    from their one definition (vocab/src/operations.rs).
if [ "$out" = pkg ]; then
  cp js/otel.js js/otel.d.ts js/otel_client.js js/otel_auth.js js/otel_webhooks.js js/otel_live.js js/otel_telemetry.js "$out/"
  vocab_bin "$out/otel_routes.js" otel-routes-js
fi
