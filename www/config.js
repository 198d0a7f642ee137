// The demo's defaults. `make demo-static` replaces this file in its copy (target/demo-static/)
// with one whose DEFAULT_SERVICE is "in-page": a static host has no emulator behind it.
// The URL parameter `?service=server` or `?service=in-page` overrides the default.

/** "server": the emulator at the base URL (`make demo`); "in-page": the emulator in this tab. */
export const DEFAULT_SERVICE = "server";
