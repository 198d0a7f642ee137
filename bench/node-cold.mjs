// One cold-start sample in Node, run by bench/run.mjs in a fresh process per sample (a
// serverless route's cold start): `node bench/node-cold.mjs <mode> <baseUrl> <pkgDir> <peerFile>`
// prints one JSON line. estatekit = import() of the package's Node entry + new Client + the
// first resolved listWebhooks (the package loads its module itself, as an app meets it); peer =
// import() of the peer's bundle (fetch + zod) + its first listWebhooks. Times are from just
// before the import (after Node's own start, which both pay alike).
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [mode, baseUrl, pkgDir, peerFile] = process.argv.slice(2);
const token = "dev-token";
const t0 = performance.now();
let webhooks;
let t1;
if (mode === "estatekit") {
  const m = await import(pathToFileURL(join(pkgDir, "estatekit.node.js")).href);
  t1 = performance.now();
  webhooks = await new m.Client({ baseUrl, token }).listWebhooks();
} else if (mode === "peer") {
  const m = await import(pathToFileURL(peerFile).href);
  t1 = performance.now();
  webhooks = await m.peerClient({ baseUrl, token }).listWebhooks();
} else {
  t1 = performance.now();
  const r = await fetch(`${baseUrl}/api/external-integrations/webhooks`, { headers: { Authorization: `Bearer ${token}` } });
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  webhooks = await r.json();
  if (!Array.isArray(webhooks)) throw new Error("not an array");
}
const t2 = performance.now();
console.log(JSON.stringify({ total: t2 - t0, import: t1 - t0, firstCall: t2 - t1, count: webhooks.length }));
