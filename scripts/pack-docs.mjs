// Copies the documentation the package's README links into the built package (make pkg,
// scripts/build-pkg.sh): docs/*.md to <out>/docs/ and CHANGELOG.md to <out>/, so that a reader
// with only the tarball has every page. A link whose target the package does not ship (a file of
// the repository outside docs/, e.g. CONTRIBUTING.md, bench/README.md, or the repository's own
// README.md, which is not the package's) is pointed at that file in the repository
// (package.json's `repository`); every other link is kept as written. `node tests/docs/links.mjs
// --packed` checks that every link of the packed Markdown resolves.
// Usage: node scripts/pack-docs.mjs OUT_DIR
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const out = process.argv[2];
if (!out) throw new Error("usage: node scripts/pack-docs.mjs OUT_DIR");

const manifest = JSON.parse(readFileSync(join(root, "js/package.json"), "utf8"));
const repository = manifest.repository.url.replace(/^git\+/, "").replace(/\.git$/, "");

/** The repository's paths of the packed pages (the package's path is the same). */
const docs = readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
const packed = new Set([...docs, "CHANGELOG.md", "EMULATOR.md"]);

/** `text` of the repository file `file`, its links to unshipped files pointed at the repository. */
function rewrite(file, text) {
  let fence = null;
  return text
    .split("\n")
    .map((line) => {
      const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
      if (fence === null && m) fence = m[1];
      else if (fence !== null && line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, "") === "") fence = null;
      else if (fence === null) {
        return line.replace(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g, (all, target, anchor = "") => {
          if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) return all;
          const path = normalize(join(dirname(file), target)).split(sep).join("/").replace(/\/$/, "");
          if (packed.has(path)) return all;
          return `](${repository}/blob/main/${path}${anchor})`;
        });
      }
      return line;
    })
    .join("\n");
}

mkdirSync(join(out, "docs"), { recursive: true });
for (const file of [...docs, "CHANGELOG.md"]) {
  writeFileSync(join(out, file), rewrite(file, readFileSync(join(root, file), "utf8")));
}

