#!/bin/sh
# WebKitWebDriver as the tests start it (make test-browser through wasm-bindgen-test-runner's
# SAFARIDRIVER, and tests/consumers/browsers.mjs): the driver at WEBKITDRIVER (default Debian's
# /usr/bin/WebKitWebDriver), with an environment that keeps the browser it starts (WebKitGTK's
# MiniBrowser) off the network. It needs a display: run it under xvfb-run -a.
#
# WebKitGTK contacts nothing by itself (no telemetry, updates or safe browsing; checked with
# strace, see README, Browser engines), but a page's request to another host would go out.
# The proxy variables send every http(s) request to a host other than 127.0.0.1/localhost to a
# proxy on 127.0.0.1:9, where nothing listens: the request fails at once and the host name is
# not even looked up. GIO_USE_PROXY_RESOLVER=libproxy makes GIO read these variables also on a
# GNOME desktop, whose own resolver (GNOME's proxy settings) would ignore them.
export GIO_USE_PROXY_RESOLVER=libproxy
export http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9
export no_proxy=127.0.0.1,localhost
exec "${WEBKITDRIVER:-/usr/bin/WebKitWebDriver}" "$@"
