/* @ts-self-types="./testing.d.ts" */
// estatekit/testing for Cloudflare Workers (the `workerd` condition), which compile no WebAssembly
// from bytes or URLs: the emulator's module imported as a compiled module, as wrangler and workerd
// import a .wasm file. The API is ./testing_service.js's.
import { entry } from "./testing_service.js";
// @ts-ignore: a .wasm import is the runtime's (a WebAssembly.Module), not TypeScript's.
import compiled from "./estatekit_testing_wasm_bg.wasm";

export const { createTestService, TestService } = entry(() => compiled);
// The in-memory event log of estatekit/live, for tests of a stream route (see ./live.d.ts).
export { createMemoryEventLog } from "./live_log.js";
