// `#webhooks-wasm` outside Node (package.json "imports"): the .wasm file next to this module, a
// URL that bundlers rewrite to the emitted asset.
export default () => new URL("estatekit_webhooks_wasm_bg.wasm", import.meta.url);
