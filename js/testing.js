/* @ts-self-types="./testing.d.ts" */
// estatekit/testing for browsers and workers (the `default` condition): the emulator's module is
// the .wasm file next to this one, or, where that gives no module, the server entry's embedded
// copy of the same module, imported lazily (see ./loader.js). The API is ./testing_service.js's.
import { entry } from "./testing_service.js";

export const { createTestService, TestService } = entry(
  () => new URL("estatekit_testing_wasm_bg.wasm", import.meta.url),
  () => import("./estatekit_testing_wasm_embedded.js")
);
// The in-memory event log of estatekit/live, for tests of a stream route (see ./live.d.ts).
export { createMemoryEventLog } from "./live_log.js";
