#!/usr/bin/env bash
# Builds pkg/: wasm-pack (release, --target web, out-name estatekit), wasm-opt -Oz from the
# pinned npm binaryen package, then scripts/finish-pkg.mjs (constants, package.json).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

# --mode no-install: use the wasm-bindgen on PATH (scripts/setup.sh pins it), never download.
wasm-pack --log-level warn build --mode no-install --target web --out-name estatekit --release
wasm-opt -Oz --strip-debug --strip-producers --enable-bulk-memory --enable-bulk-memory-opt --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-multivalue --enable-reference-types pkg/estatekit_bg.wasm -o pkg/estatekit_bg.wasm
node scripts/finish-pkg.mjs
