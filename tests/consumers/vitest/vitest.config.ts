import { defineConfig } from "vitest/config";

// Node is the environment: estatekit/testing answers in process, so nothing listens anywhere.
export default defineConfig({ test: { environment: "node", include: ["test/**/*.test.ts"] } });
