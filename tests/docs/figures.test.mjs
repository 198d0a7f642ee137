// The documents' current figures against what `make size` measures (issue "A newcomer's first
// day", 4): every figure behind a `<!-- figure:KEY -->` marker in a Markdown file of the
// repository must be within 1 % of the measured one, docs/figures.md must hold every figure
// `make size` measures, and README.md quotes no byte count without a marker (a figure that is
// not held against the build is history, and the README keeps none). Needs pkg/ (make pkg).
// Usage: node --test tests/docs/figures.test.mjs    (make test-figures)
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { figuresIn, staleFigures, TOLERANCE } from "../../scripts/figures.mjs";
import { currentFigures } from "../../scripts/size.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const markdown = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "*.md"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter((f) => f && !f.includes("node_modules/"));
const read = (file) => readFileSync(`${root}${file}`, "utf8");

test("the check fails on a stale figure, an unknown key, and passes on the right one", () => {
  const measured = { main: 156_253 };
  assert.deepEqual(staleFigures("x.md", "The entry is <!-- figure:main -->**156,253 bytes**.", measured), []);
  // Within 1 %: a figure measured a few bytes apart (another toolchain's gzip) passes.
  assert.deepEqual(staleFigures("x.md", "<!-- figure:main -->155,000", measured), []);
  const stale = staleFigures("x.md", "line one\nThe entry is <!-- figure:main -->**141,060 bytes**.", measured);
  assert.equal(stale.length, 1);
  assert.match(stale[0], /^x\.md:2: figure:main says 141,060; `make size` measures 156,253/);
  const unknown = staleFigures("x.md", "<!-- figure:mian -->156,253", measured);
  assert.match(unknown[0], /figure:mian is not a figure `make size` measures/);
  assert.equal(TOLERANCE, 0.01);
});

test("every marked figure of the documents is within 1 % of `make size`", () => {
  const measured = currentFigures(new URL("pkg/", `file://${root}`));
  const problems = markdown.flatMap((file) => staleFigures(file, read(file), measured));
  assert.deepEqual(problems, [], `stale figures (run \`make size\`, which rewrites docs/figures.md, and update the others):\n${problems.join("\n")}`);
  const listed = new Set(figuresIn(read("docs/figures.md")).map((f) => f.key));
  const missing = Object.keys(measured).filter((k) => k !== "guard" && !listed.has(k));
  assert.deepEqual(missing, [], "docs/figures.md lacks figures that `make size` measures: run `make size`");
});

test("README.md quotes no byte count that is not held against the build", () => {
  const text = read("README.md");
  const unmarked = [...text.matchAll(/(<!-- figure:[a-z0-9-]+ -->\**)?\b\d{1,3}(,\d{3})+ (bytes|B)\b/g)].filter((m) => !m[1]).map((m) => m[0]);
  assert.deepEqual(unmarked, [], "README.md: put the figure behind a <!-- figure:KEY --> marker, or link to docs/figures.md");
});
