// Every statement of the retry rule in the Markdown files is the rule of the code (issue 54, 2):
// each stands behind a `<!-- rule:retry -->` marker whose text is what core/src/error.rs says
// (`error-model --rule`, the bin of estatekit-core; `make generate` rewrites them), and
// no sentence outside a marker names the statuses that are retried (a sentence about retries
// naming 408, 5xx or two of 429 and 500-504; a webhook sender's retries are another rule).
// Usage: node --test tests/docs/rules.test.mjs    (make test-links)
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { workspaceBin } from "../../scripts/local.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const rule = workspaceBin("error-model", ["--rule"]);
const markdown = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "*.md"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter((f) => f && !f.includes("node_modules/") && f !== "CHANGELOG.md" && !f.startsWith("bench/"));
const squash = (text) => text.replace(/\s+/g, " ").trim();
const MARKED = /<!-- rule:retry -->([\s\S]*?)<!-- \/rule -->/g;

/** The sentences of `text` outside rule markers that state which statuses are retried. */
export function unmarkedStatements(text) {
  const outside = text.replace(MARKED, "").replace(/```[\s\S]*?```/g, "");
  return outside
    .split(/(?<=[.;])\s+|\n\s*\n|\n\|/)
    .map(squash)
    .filter((s) => /retr(y|ie|yable)/i.test(s) && !/sender|deliver/i.test(s))
    .filter((s) => /\b(408|5xx)\b/.test(s) || new Set(s.match(/\b(429|50[0-4])\b/g)).size >= 2);
}

test("the rule in words comes from the code and names every retried status", () => {
  for (const status of ["408", "429", "500", "502", "503", "504"]) assert.ok(rule.includes(status), status);
  assert.ok(rule.includes("a timeout"), rule);
});

test("the check finds a statement of the rule outside a marker, and passes a marked one", () => {
  assert.equal(unmarkedStatements("Calls are retried after a 5xx. Other text.").length, 1);
  assert.equal(unmarkedStatements(`Retries: <!-- rule:retry -->${rule}<!-- /rule -->.`).length, 0);
});

test("every statement of the retry rule in the documents is the code's rule", () => {
  const stale = [];
  const unmarked = [];
  let markers = 0;
  for (const file of markdown) {
    const text = readFileSync(`${root}${file}`, "utf8");
    for (const [, said] of text.matchAll(MARKED)) {
      markers += 1;
      if (squash(said) !== squash(rule)) stale.push(`${file}: ${squash(said).slice(0, 80)}…`);
    }
    for (const sentence of unmarkedStatements(text)) unmarked.push(`${file}: ${sentence.slice(0, 160)}`);
  }
  assert.ok(markers >= 5, `README.md and docs/ state the rule behind markers (found ${markers})`);
  assert.deepEqual(stale, [], "stale statements of the retry rule: run `make generate`");
  assert.deepEqual(unmarked, [], "statements of which statuses are retried outside a <!-- rule:retry --> marker");
});
