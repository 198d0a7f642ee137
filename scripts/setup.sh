#!/usr/bin/env bash
# Installs what building and testing estatekit needs, skipping what is already there at the
# right version: the wasm32 target, wasm-bindgen-cli (same version as the wasm-bindgen crate),
# the lean build's toolchain (scripts/lean-toolchain.sh: Debian's rustc-web 1.96, the library's
# source, wasm-ld), Debian's Chromium + ChromeDriver, Debian's Firefox ESR + geckodriver (a crate on
# crates.io: Debian does not package it), Debian's WebKitGTK WebDriver + MiniBrowser and Xvfb,
# Debian's redis-server (the multi-process tests of estatekit/store), and the npm dev tools
# (package-lock.json).
# Nothing is fetched but packages from their registries (apt, crates.io, npm).
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=$(sed -nE 's/^wasm-bindgen = "=([0-9.]+)"/\1/p' Cargo.toml)
# geckodriver 0.37.1 drives Debian's firefox-esr 153 (make test-browser, tests/consumers).
GECKODRIVER_VERSION=0.37.1
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf 'setup: %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
# apt-get install of Debian packages, with one apt-get update per run of this script.
apt_updated=
apt_install() {
  [ -n "$apt_updated" ] || { as_root apt-get update -qq; apt_updated=1; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $WASM_BINDGEN_VERSION"; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 2 minutes)"
  # Not --locked: the locked build needs a crate version the registry mirror lacks.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

# The shipped modules' toolchain (scripts/build-pkg.sh sources the same script before it builds).
bash scripts/lean-toolchain.sh

if [ "${ESTATEKIT_SKIP_BROWSER:-}" != 1 ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; }; then
  say "installing Debian's chromium and chromium-driver"
  apt_install chromium chromium-driver
fi

# firefox-esr: any ESR from 140 (bookworm's) on; 153 is the one tested (see README, Engines).
firefox_major=$( (firefox-esr --version 2>/dev/null || true) | sed -nE 's/^Mozilla Firefox ([0-9]+)\..*/\1/p')
if [ "${ESTATEKIT_SKIP_BROWSER:-}" != 1 ] && [ "${firefox_major:-0}" -lt 140 ]; then
  say "installing Debian's firefox-esr (about 1 minute)"
  apt_install firefox-esr
fi

geckodriver_version=$( (geckodriver --version 2>/dev/null || true) | sed -n 1p)
if [ "${ESTATEKIT_SKIP_BROWSER:-}" != 1 ] && [ "$geckodriver_version" != "geckodriver $GECKODRIVER_VERSION" ]; then
  say "installing geckodriver $GECKODRIVER_VERSION from crates.io (about 5 minutes)"
  # --locked: the crate ships its Cargo.lock, and every version in it is on the registry.
  # --debug: an unoptimised build takes 4m50s here instead of 8m30s on 2 cores; it only relays
  # WebDriver commands to Firefox, so its speed does not show in the test times.
  cargo install geckodriver --version "$GECKODRIVER_VERSION" --locked --debug --force
fi

# WebKit (Safari's engine): Debian's webkit2gtk-driver gives WebKitWebDriver and WebKitGTK's
# MiniBrowser; MiniBrowser has no headless mode, so its driver runs under xvfb-run (xvfb).
MINIBROWSER=/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser
if [ "${ESTATEKIT_SKIP_BROWSER:-}" != 1 ] && { [ ! -x /usr/bin/WebKitWebDriver ] || [ ! -x "$MINIBROWSER" ] || [ ! -x /usr/bin/xvfb-run ]; }; then
  say "installing Debian's webkit2gtk-driver and xvfb"
  apt_install webkit2gtk-driver xvfb
fi

# Redis: the multi-process tests (tests/consumers/redis.test.mjs) start their own redis-server on
# a free loopback port; the package's service is never enabled or started here.
if [ ! -x /usr/bin/redis-server ]; then
  say "installing Debian's redis-server"
  apt_install redis-server
fi

stamp=node_modules/.estatekit-lock-sha
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  say "installing npm dev tools (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
