#!/usr/bin/env bash
# Builds pkg/, the npm package:
# 1. wasm-pack (release, --target web, out-name estatekit_wasm): wasm-bindgen's glue
#    estatekit_wasm.js + estatekit_wasm.d.ts, kept exactly as emitted, the module
#    estatekit_wasm_bg.wasm;
# 2. wasm-opt -Oz (pinned npm binaryen) on the module, in place; imports and exports keep their
#    names, so the glue needs no change;
# 3. the public wrapper js/estatekit.js, its declarations js/estatekit.d.ts and js/package.json,
#    copied as they are.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

rm -rf pkg # no file of an earlier build (e.g. a snippet under an old hash) is packed
# --mode no-install: use the wasm-bindgen on PATH (scripts/setup.sh pins it), never download.
wasm-pack --log-level warn build --mode no-install --target web --out-name estatekit_wasm --release
wasm-opt -Oz --strip-debug --strip-producers --enable-bulk-memory --enable-bulk-memory-opt \
  --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-multivalue \
  --enable-reference-types pkg/estatekit_wasm_bg.wasm -o pkg/estatekit_wasm_bg.wasm
cp js/estatekit.js js/estatekit.d.ts js/package.json pkg/
