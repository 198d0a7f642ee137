// The default configuration: no serverExternalPackages, no webpack or turbopack settings.
// ESTATEKIT_NEXT_OUTPUT=standalone (set by tests/consumers/next.test.mjs for one build only)
// adds `output: "standalone"`; otherwise this exports `{}`.
const nextConfig = process.env.ESTATEKIT_NEXT_OUTPUT === "standalone" ? { output: "standalone" } : {};

export default nextConfig;
