#!/usr/bin/env bash
# The lean build step by step (`make lean-steps`, bench/README.md "The lean build"): the main
# module built with each step of scripts/build-pkg.sh's lean flags added in turn, each through the
# same wasm-bindgen and wasm-opt -Oz as `make pkg`, its .wasm's raw bytes and `gzip -9` bytes
# printed as a Markdown table, then the steps after the build (wasm-opt's function order, the short
# names of scripts/short-imports.mjs). Two rows measure what was tried and not kept. Each step builds in
# target/lean-steps/<step> (the standard library is compiled once per step: about 2 minutes each).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
source scripts/lean-toolchain.sh

out=target/lean-steps
mkdir -p "$out"
# row NAME NOTE ordinary|lean "RUSTFLAGS" [cargo args...]: builds, binds and optimises one step.
row() {
  local name=$1 note=$2 kind=$3 flags=$4
  shift 4
  local dir="$out/$name"
  if [ "$kind" = ordinary ]; then
    cargo build -q --lib --release --target wasm32-unknown-unknown --target-dir "$dir" "$@"
  else
    env RUSTC="$LEAN_RUSTC" RUSTC_BOOTSTRAP=1 CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$LEAN_LINKER" \
      RUSTFLAGS="$flags" "$LEAN_CARGO" build -q --lib --release --target wasm32-unknown-unknown \
      --target-dir "$dir" "$@"
  fi
  # The same names and flags as make pkg's (the import module's name is in the .wasm's bytes).
  wasm-bindgen --target web --typescript --out-name estatekit_wasm --out-dir "$dir/bound" \
    "$dir/wasm32-unknown-unknown/release/estatekit.wasm"
  wasm-opt "$dir/bound/estatekit_wasm_bg.wasm" --low-memory-unused --strip-debug --strip-producers --enable-bulk-memory \
    --enable-bulk-memory-opt --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    --enable-multivalue --enable-reference-types -Oz -o "$dir/m.wasm"
  printf '| %s | %s | %s | %s |\n' "$note" "$(stat -c %s "$dir/m.wasm")" "$(gzip -9 -c "$dir/m.wasm" | wc -c)" "$name"
}

STD=(-Zbuild-std=std,panic_abort)
IA="-Zunstable-options -Cpanic=immediate-abort"
echo "| build | .wasm raw | .wasm gzip -9 | step |"
echo "|---|---:|---:|---|"
row ordinary "precompiled std, panic = \"abort\" (before issue 63)" ordinary ""
row std "std rebuilt, panic_abort" lean "" "${STD[@]}"
row immediate "std rebuilt, -Cpanic=immediate-abort" lean "$IA" "${STD[@]}"
row location "+ -Zlocation-detail=none" lean "$IA -Zlocation-detail=none" "${STD[@]}"
row size "+ the library's optimize_for_size" lean "$IA -Zlocation-detail=none" "${STD[@]}" -Zbuild-std-features=optimize_for_size
# The steps after the build, on the same bound module: wasm-opt with the functions in the order of
# their names and without the target features section (scripts/wasm-build.sh's `optimize`), then
# the imports' and the closures' names made short in the .wasm and the glue
# (scripts/short-imports.mjs; the glue's bytes are not in this table: `make size` counts both).
mkdir -p "$out/short"
wasm-opt "$out/size/bound/estatekit_wasm_bg.wasm" -Oz --reorder-functions-by-name --low-memory-unused --strip-debug \
  --strip-producers --strip-target-features --enable-bulk-memory --enable-bulk-memory-opt \
  --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-multivalue \
  --enable-reference-types -o "$out/short/ordered.wasm"
printf '| %s | %s | %s | %s |\n' "+ wasm-opt: functions in name order, no target features section" \
  "$(stat -c %s "$out/short/ordered.wasm")" "$(gzip -9 -c "$out/short/ordered.wasm" | wc -c)" ordered
cp "$out/short/ordered.wasm" "$out/short/m.wasm"
cp "$out/size/bound/estatekit_wasm.js" "$out/short/estatekit_wasm.js"
# (the .wasm written by tools/wasm-names, built as scripts/wasm-build.sh builds it)
cargo build -q --workspace --bin wasm-names --examples
WASM_NAMES=target/debug/wasm-names node scripts/short-imports.mjs "$out/short/m.wasm" "$out/short/estatekit_wasm.js"
printf '| %s | %s | %s | %s |\n' "+ the imports' and exports' short names (shipped)" "$(stat -c %s "$out/short/m.wasm")" \
  "$(gzip -9 -c "$out/short/m.wasm" | wc -c)" short
row fmtdebug "not kept: + -Zfmt-debug=none (serde's messages lose their {:?} values)" lean "$IA -Zlocation-detail=none -Zfmt-debug=none" "${STD[@]}" -Zbuild-std-features=optimize_for_size
row corez "not kept: + estatekit-core at opt-level \"z\" (listDocuments' speed budget)" lean "$IA -Zlocation-detail=none" "${STD[@]}" -Zbuild-std-features=optimize_for_size \
  --config 'profile.release.package.estatekit-core.opt-level="z"'
