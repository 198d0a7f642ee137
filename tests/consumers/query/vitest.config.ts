import { defineConfig } from "vitest/config";

// jsdom, as a React or Vue app's component tests run; estatekit/testing answers in process.
export default defineConfig({ test: { environment: "jsdom", include: ["test/**/*.test.ts"], testTimeout: 30_000 } });
