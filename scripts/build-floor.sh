#!/usr/bin/env bash
# Builds the stack floor of `make bench` (bench/floor/, issue 63) into target/bench-floor/:
# exactly as scripts/build-pkg.sh builds the shipped main module (scripts/wasm-build.sh: the same
# toolchain and flags, wasm-bindgen --target web, wasm-opt -Oz, the imports' short names), with
# the workspace's release profile and Cargo.lock. Never part of pkg/. bench/run.mjs serves the result at /floor/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
source scripts/wasm-build.sh

out=target/bench-floor
rm -rf "$out"
cargo_wasm -p estatekit-bench-floor --lib
bindgen estatekit_bench_floor "$out" "$wasm_dir/estatekit_bench_floor.wasm"
optimize -Oz "$out/estatekit_bench_floor_bg.wasm" "$out/estatekit_bench_floor_bg.wasm"
short_imports "$out/estatekit_bench_floor_bg.wasm" "$out/estatekit_bench_floor.js"
