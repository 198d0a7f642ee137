#!/usr/bin/env bash
# Writes target/demo-static/ (or the folder given as $1): the demo page for any static host,
# with no emulator process. Layout, so that www/'s relative imports (../pkg/...) work unchanged
# at any URL prefix:
#   index.html   a redirect to www/
#   www/         the demo's files as they are, except config.js, whose default service is
#                "in-page" (the emulator compiled to WebAssembly, in the tab)
#   pkg/         the package files the page loads: the main entry and estatekit/testing (their
#                wrappers, glue and .wasm modules), nothing else
# `?service=server` still points the page at an emulator on the page's own origin.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/demo-static}

for f in estatekit.js client.js paging.js api_error.js base_url.js vocab.js loader.js testing_service.js estatekit_wasm.js estatekit_wasm_bg.wasm testing.js live_log.js redis_send.js estatekit_testing_wasm.js estatekit_testing_wasm_bg.wasm; do
  [ -f "pkg/$f" ] || { echo "demo-static: pkg/$f is missing: run \`make pkg\` first" >&2; exit 1; }
done

rm -rf "$out"
mkdir -p "$out/www" "$out/pkg"
cp www/* "$out/www/"
cp pkg/estatekit.js pkg/client.js pkg/paging.js pkg/api_error.js pkg/base_url.js pkg/vocab.js pkg/loader.js pkg/testing_service.js pkg/estatekit_wasm.js pkg/estatekit_wasm_bg.wasm \
  pkg/testing.js pkg/live_log.js pkg/redis_send.js pkg/estatekit_testing_wasm.js pkg/estatekit_testing_wasm_bg.wasm "$out/pkg/"
# wasm-bindgen puts inline JavaScript snippets (if any) next to the glue.
if [ -d pkg/snippets ]; then cp -r pkg/snippets "$out/pkg/"; fi

cat > "$out/www/config.js" <<'EOF'
// Written by `make demo-static`: a static host has no emulator, so the page runs it in the tab.
// The URL parameter `?service=server` or `?service=in-page` overrides the default.

/** "server": the emulator at the base URL (`make demo`); "in-page": the emulator in this tab. */
export const DEFAULT_SERVICE = "in-page";
EOF

cat > "$out/index.html" <<'EOF'
<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="refresh" content="0; url=www/">
  <link rel="icon" href="data:,">
  <title>estatekit demo</title>
</head>
<body>
  <p><a href="www/">Open the estatekit demo admin console</a>.</p>
</body>
</html>
EOF

files=$(find "$out" -type f | wc -l)
bytes=$(du -sb "$out" | cut -f1)
echo "demo-static: wrote $out/ ($files files, $bytes bytes), no emulator needed."
echo "Serve it with any static server, e.g.:"
echo "  python3 -m http.server --bind 127.0.0.1 --directory $out 8000"
echo "then open http://127.0.0.1:8000/ (the page runs the service in the tab; ?service=server for an emulator on the same origin)."
