#!/usr/bin/env bash
# Builds pkg/: wasm-pack (release, --target web, out-name estatekit), wasm-opt -Oz from the
# pinned npm binaryen package, then scripts/finish-pkg.mjs (wrapper,
# constants, package.json) and scripts/minify-pkg.mjs (short wasm names, minified JS).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

# --mode no-install: use the wasm-bindgen on PATH (scripts/setup.sh pins it), never download.
wasm-pack --log-level warn build --mode no-install --target web --out-name estatekit --release
# After -Oz, every import and export gets a short name (and all imports one module); wasm-opt
# prints the mapping, which scripts/minify-pkg.mjs applies to the glue before minifying the JS.
mkdir -p target
wasm-opt -Oz --strip-debug --strip-producers --enable-bulk-memory --enable-bulk-memory-opt --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-multivalue --enable-reference-types \
  --minify-imports-and-exports-and-modules pkg/estatekit_bg.wasm -o pkg/estatekit_bg.wasm > target/pkg-wasm-names.json
node scripts/finish-pkg.mjs
node scripts/minify-pkg.mjs target/pkg-wasm-names.json
