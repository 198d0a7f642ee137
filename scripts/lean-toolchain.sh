#!/usr/bin/env bash
# The toolchain of the shipped modules (the lean build, CONTRIBUTING.md "The lean build"):
# Debian's rustc-web and cargo-web (rustc 1.96), the standard library's source (rust-web-src),
# which -Zbuild-std compiles for the module, and wasm-ld from lld-19. Installed with apt-get when
# missing, then checked: the exact rustc version the build flags were measured with, the library
# source, the linker. Prints nothing when all is there; exits 1 with what is wrong otherwise.
# Sourced by scripts/wasm-build.sh (it sets LEAN_*; scripts/build-pkg.sh and scripts/build-floor.sh
# source that), or run alone to install and check.
set -euo pipefail

# The version the lean flags (-Cpanic=immediate-abort, -Zlocation-detail=none) were measured
# with; unstable flags may change meaning in another version, so another one is refused.
LEAN_RUSTC_VERSION=1.96.0
LEAN_RUSTC=/usr/bin/rustc
LEAN_CARGO=/usr/bin/cargo
LEAN_LINKER=/usr/lib/llvm-19/bin/wasm-ld
LEAN_LIBRARY=/usr/lib/rustlib/src/rust/library
LEAN_PACKAGES=(rustc-web cargo-web rust-web-src lld-19)

lean_fail() {
  printf 'lean toolchain: %s\n' "$*" >&2
  printf 'lean toolchain: `make pkg PANIC_MESSAGES=1` builds with the ordinary toolchain instead (not for shipping).\n' >&2
  exit 1
}

lean_version() { "$LEAN_RUSTC" --version 2>/dev/null | sed -nE 's/^rustc ([0-9.]+) .*/\1/p'; }

lean_ready() {
  [ "$(lean_version)" = "$LEAN_RUSTC_VERSION" ] && [ -x "$LEAN_CARGO" ] && [ -x "$LEAN_LINKER" ] &&
    [ -f "$LEAN_LIBRARY/std/Cargo.toml" ]
}

if ! lean_ready; then
  printf 'setup: installing the lean build'"'"'s toolchain (%s, about 30 seconds)\n' "${LEAN_PACKAGES[*]}"
  as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
  as_root apt-get update -qq || lean_fail "apt-get update failed"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${LEAN_PACKAGES[@]}" >/dev/null ||
    lean_fail "apt-get install ${LEAN_PACKAGES[*]} failed"
  got=$(lean_version)
  [ "$got" = "$LEAN_RUSTC_VERSION" ] ||
    lean_fail "Debian's rustc-web is ${got:-missing}, the lean build needs exactly $LEAN_RUSTC_VERSION (the version its unstable flags were measured with). Update LEAN_RUSTC_VERSION in scripts/lean-toolchain.sh after measuring the new one (CONTRIBUTING.md, \"The lean build\")."
  [ -f "$LEAN_LIBRARY/std/Cargo.toml" ] || lean_fail "rust-web-src did not give the library source at $LEAN_LIBRARY"
  [ -x "$LEAN_LINKER" ] || lean_fail "lld-19 did not give $LEAN_LINKER"
  [ -x "$LEAN_CARGO" ] || lean_fail "cargo-web did not give $LEAN_CARGO"
fi
