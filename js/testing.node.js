/* @ts-self-types="./testing.d.ts" */
// estatekit/testing for servers (the `node` condition: Node, Deno, Bun, Next.js route handlers,
// vitest): the emulator's module bytes are embedded in ./estatekit_testing_wasm_embedded.js. The
// API is ./testing_service.js's, the same as the browser entry's.
import { entry } from "./testing_service.js";
import bytes from "./estatekit_testing_wasm_embedded.js";

export const { createTestService, TestService } = entry(bytes);
// The in-memory event log of estatekit/live, for tests of a stream route (see ./live.d.ts).
export { createMemoryEventLog } from "./live_log.js";
