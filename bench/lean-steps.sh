#!/usr/bin/env bash
# The lean build step by step (`make lean-steps`, bench/README.md "The lean build"): the main
# module built with each step of scripts/build-pkg.sh's lean flags added in turn, each through the
# same wasm-bindgen and wasm-opt -Oz as `make pkg`, its .wasm's raw bytes and `gzip -9` bytes
# printed as a Markdown table. Two rows measure what was tried and not kept. Each step builds in
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
row size "+ the library's optimize_for_size (shipped)" lean "$IA -Zlocation-detail=none" "${STD[@]}" -Zbuild-std-features=optimize_for_size
row fmtdebug "not kept: + -Zfmt-debug=none (serde's messages lose their {:?} values)" lean "$IA -Zlocation-detail=none -Zfmt-debug=none" "${STD[@]}" -Zbuild-std-features=optimize_for_size
row corez "not kept: + estatekit-core at opt-level \"z\" (listDocuments' speed budget)" lean "$IA -Zlocation-detail=none" "${STD[@]}" -Zbuild-std-features=optimize_for_size \
  --config 'profile.release.package.estatekit-core.opt-level="z"'
