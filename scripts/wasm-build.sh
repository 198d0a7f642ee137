#!/usr/bin/env bash
# How a WebAssembly module of this repository is built, shared by scripts/build-pkg.sh (the
# shipped modules) and scripts/build-floor.sh (bench/floor/, the stack floor of `make bench`), so
# that both are built alike. Sourced (with the working directory at the repository's root); it
# defines:
#   cargo_wasm ARGS...        `cargo build --release --target wasm32-unknown-unknown ARGS`, lean
#                             unless PANIC_MESSAGES=1; its modules are under $wasm_dir;
#   bindgen OUT_NAME OUT_DIR MODULE [ARGS...]   wasm-bindgen's glue for the browser's ES modules;
#   optimize LEVEL IN OUT     the pinned wasm-opt with the features the modules use, `strip`
#                             applied (the caller may set the array `strip` before calling it);
#   short_imports WASM GLUE   the module's imports and the exports the glue calls renamed `a`,
#                             `b`, ... in the .wasm, wasm-bindgen's glue and its declarations
#                             (scripts/short-imports.mjs, the .wasm written by tools/wasm-names),
#                             after `optimize`.
#
# The lean build: the standard library rebuilt for the module (-Zbuild-std) with panics that abort
# at once (-Cpanic=immediate-abort: no panic message is formatted, a panic is the `unreachable`
# trap) and no source locations (-Zlocation-detail=none), by Debian's rustc-web 1.96 that
# scripts/lean-toolchain.sh installs and checks, in a target directory of its own (target/lean),
# with RUSTC_BOOTSTRAP=1 for that command alone; the standard library with its
# `optimize_for_size` feature (its smaller variants of sorting, formatting and searching).
# `PANIC_MESSAGES=1` builds with the ordinary toolchain, panic messages kept (for diagnosing a
# trap; never shipped: `make lean-check`, part of `make test`, refuses it).

# What the shipped modules leave out: names and debug information, the producers section, and the
# target features section (for tools that read the module, not for its runtimes: about 110 bytes).
[ -n "${strip+x}" ] || strip=(--strip-debug --strip-producers --strip-target-features)

# wasm-opt LEVEL IN OUT: the pinned binaryen with the features the modules use, `strip` applied.
# --low-memory-unused: Rust's wasm32 modules place no data below 1 MiB (the stack comes first),
# so binaryen may fold constant addresses into load/store offsets (the main entry: about 430
# bytes gzip smaller). --reorder-functions-by-name (after LEVEL's passes, before `strip` takes the
# names): the functions in the order of their Rust names, so that the copies of one generic
# function and the functions of one module sit together, where gzip finds their likenesses
# (the main entry: about 340 bytes gzip smaller; the code itself is the same). At -Oz, first
# --flatten --rereloop: binaryen rebuilds each function's control flow from its graph with its
# relooper before optimising it (the main entry: about 970 bytes gzip smaller, the same behaviour).
optimize() {
  local restructure=()
  [ "$1" != -Oz ] || restructure=(--flatten --rereloop)
  wasm-opt "${restructure[@]}" "$1" --reorder-functions-by-name --low-memory-unused "${strip[@]}" --enable-bulk-memory --enable-bulk-memory-opt \
    --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-multivalue \
    --enable-reference-types "$2" -o "$3"
}

# short_imports WASM GLUE: wasm-bindgen's hashed import names (`__wbg_abort_968456626434218d`)
# and the exports its glue calls, written in the .wasm and in the glue, renamed short in both
# (scripts/short-imports.mjs; the main entry: about 5.6 kB gzip smaller). The names-kept build
# (--keep-names) keeps them. The script reads the names with Node's WebAssembly API and has the
# .wasm written by tools/wasm-names (wasmparser and wasm-encoder), built here once per build by
# the ordinary toolchain, natively, as `make emulator` and `cargo test --workspace` build the
# workspace's binaries (--workspace --examples: the same features, so the same compiled crates).
# After `optimize`: the tool copies every section but the import and export sections byte for
# byte, so wasm-opt's output is kept as it is.
short_imports() {
  if [ -z "${wasm_names_built:-}" ]; then
    cargo build -q --workspace --bin wasm-names --examples
    wasm_names_built=1
  fi
  WASM_NAMES=target/debug/wasm-names node scripts/short-imports.mjs "$1" "$2"
}

if [ "${PANIC_MESSAGES:-}" = 1 ]; then
  echo "wasm build: PANIC_MESSAGES=1: the ordinary toolchain, panic messages kept (not for shipping)" >&2
  wasm_dir=target/wasm32-unknown-unknown/release
  cargo_wasm() { cargo build --release --target wasm32-unknown-unknown "$@"; }
else
  source scripts/lean-toolchain.sh
  wasm_dir=target/lean/wasm32-unknown-unknown/release
  cargo_wasm() {
    env RUSTC="$LEAN_RUSTC" RUSTC_BOOTSTRAP=1 CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$LEAN_LINKER" \
      RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none" \
      "$LEAN_CARGO" build --release --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort \
      -Zbuild-std-features=optimize_for_size \
      --target-dir target/lean "$@"
  }
fi

# bindgen OUT_NAME OUT_DIR MODULE [ARGS...]: wasm-bindgen's glue for the browser's ES modules.
# wasm-bindgen-cli is pinned by scripts/setup.sh to the crate's version.
bindgen() {
  local name=$1 dir=$2 module=$3
  shift 3
  wasm-bindgen --target web --typescript "$@" --out-name "$name" --out-dir "$dir" "$module"
}
