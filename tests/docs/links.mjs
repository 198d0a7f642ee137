// No Markdown file of the repository links outside it. For every *.md file git knows (tracked,
// or new and not ignored), outside code blocks and code spans, it finds
// - inline links and images, [text](target) and ![alt](target),
// - reference definitions, [label]: target,
// - autolinks, <scheme:...>, and bare URLs, http(s)://... or www....,
// - HTML links, href="..." and src="...",
// and fails unless the target is `#anchor` (a heading of the same file) or a relative path to a
// file or folder of the repository (not its build output), optionally with `#anchor` (a heading
// of that Markdown file). Code is not a link, but a Markdown file it names (`docs/x.md`) must be
// in the repository too, so that no document sends its reader to a file it does not have.
// It also fails when README.md or the package's README (js/README.md) is over 20,000 bytes.
// With --packed, it checks the Markdown of the built package instead (pkg/, as `npm pack` packs
// it: the README, EMULATOR.md, docs/*.md, CHANGELOG.md): every link is a public https URL or a
// relative path to a file the tarball holds, with `#anchor` a heading of it; and the README links
// every page of docs/ that it names. make test-links runs it when pkg/ is built.
// Usage: node tests/docs/links.mjs [files...]    (make test-links)
//        node tests/docs/links.mjs --packed
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Every file git knows, tracked or new (ignored files, such as pkg/ and target/, are not). */
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\0")
  .filter(Boolean);
const known = new Set(files);
const folders = new Set(files.flatMap((f) => f.split("/").slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join("/"))));

/** `text` with fenced code blocks blanked (lines kept, so line numbers stay right). */
function withoutFences(text) {
  let fence = null;
  return text
    .split("\n")
    .map((line) => {
      const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
      if (fence === null && m) {
        fence = m[1];
        return "";
      }
      if (fence !== null) {
        if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, "") === "") fence = null;
        return "";
      }
      return line;
    })
    .join("\n");
}

/** The code spans of a line, and the line with them blanked. */
function codeSpans(line) {
  const spans = [];
  const rest = line.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (all, _ticks, code) => {
    spans.push(code.trim());
    return " ".repeat(all.length);
  });
  return { spans, rest };
}

/** GitHub's anchors of the headings of a Markdown text. */
function anchors(text) {
  const seen = new Map();
  const out = new Set();
  for (const line of withoutFences(text).split("\n")) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const visible = m[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link's text
      .replace(/<[^>]+>/g, "") // HTML tags
      .replace(/[`*_~]/g, (c) => (c === "_" ? "_" : "")); // emphasis and code marks
    const base = visible
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

const anchorCache = new Map();
function anchorsOf(file) {
  if (!anchorCache.has(file)) anchorCache.set(file, anchors(readFileSync(join(root, file), "utf8")));
  return anchorCache.get(file);
}

/** Why `target`, found in `file`, is not a link inside the repository; null when it is. */
function problem(file, target) {
  const t = target.trim().replace(/^<(.*)>$/, "$1");
  if (t === "") return "empty link";
  if (/^[a-z][a-z0-9+.-]*:/i.test(t) || t.startsWith("//") || /^www\./i.test(t)) return "points outside the repository";
  const [pathPart, anchor] = t.split("#", 2);
  const path = decodeURIComponent(pathPart.split("?")[0]);
  if (path.startsWith("/")) return "absolute path: use a path relative to the file";
  let resolved = path === "" ? file : normalize(join(dirname(file), path)).split(sep).join("/").replace(/\/$/, "");
  // js/README.md and js/EMULATOR.md are the package's pages: there, the packed docs/ and
  // CHANGELOG.md (scripts/pack-docs.mjs) sit beside them; in the repository, at its root.
  if (file.startsWith("js/")) resolved = resolved.replace(/^js\/(docs\/.*|CHANGELOG\.md)$/, "$1");
  if (resolved === ".." || resolved.startsWith("../")) return "points outside the repository";
  if (!known.has(resolved) && !folders.has(resolved)) return `${resolved} is not a file of the repository`;
  if (anchor !== undefined && anchor !== "" && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor.toLowerCase())) {
    return `${resolved} has no heading #${anchor}`;
  }
  return null;
}

/** The links of a Markdown text: { line, target }. */
function links(text) {
  const found = [];
  withoutFences(text)
    .split("\n")
    .forEach((raw, i) => {
      const { rest: line } = codeSpans(raw);
      const add = (target) => found.push({ line: i + 1, target });
      for (const m of line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+"[^"]*"|\s+'[^']*')?\s*\)/g)) add(m[1]);
      const def = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(line);
      if (def) add(def[1]);
      for (const m of line.matchAll(/<([a-z][a-z0-9+.-]*:[^>\s]*)>/gi)) add(m[1]);
      for (const m of line.matchAll(/\b(?:href|src)\s*=\s*["']([^"']*)["']/gi)) add(m[1]);
      // Bare URLs, outside the targets already found above.
      const bare = line
        .replace(/\]\([^)]*\)/g, "")
        .replace(/<[^>]*>/g, "")
        .replace(/^\s{0,3}\[[^\]]+\]:.*$/, "");
      for (const m of bare.matchAll(/\b(?:https?:\/\/|www\.)[^\s)<>\]]+/gi)) add(m[0]);
    });
  return found;
}

/** Markdown files named in code spans: { line, name }. */
function namedInCode(text) {
  const found = [];
  withoutFences(text)
    .split("\n")
    .forEach((raw, i) => {
      for (const span of codeSpans(raw).spans) {
        for (const m of span.matchAll(/(?:^|[\s("'=])((?:\.{1,2}\/|[\w.-]+\/)*[\w.-]+\.md)\b/g)) {
          found.push({ line: i + 1, name: m[1] });
        }
      }
    });
  return found;
}

/** Whether a Markdown file named in `file`'s code exists: next to `file`, or from the root. */
function namedExists(file, name) {
  return [normalize(join(dirname(file), name)), normalize(name)]
    .map((p) => p.split(sep).join("/"))
    .some((p) => !p.startsWith("../") && known.has(p));
}

if (process.argv[2] === "--packed") {
  const pkg = join(root, "pkg");
  const [info] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: pkg, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
  const packed = new Set(info.files.map((f) => f.path));
  const errors = [];
  const pages = [...packed].filter((f) => f.endsWith(".md"));
  const headings = new Map(pages.map((f) => [f, anchors(readFileSync(join(pkg, f), "utf8"))]));
  for (const file of pages) {
    for (const { line, target } of links(readFileSync(join(pkg, file), "utf8"))) {
      const t = target.trim().replace(/^<(.*)>$/, "$1");
      if (/^https:\/\//.test(t)) continue; // a public URL
      const [pathPart, anchor] = t.split("#", 2);
      const path = decodeURIComponent(pathPart);
      const resolved = path === "" ? file : normalize(join(dirname(file), path)).split(sep).join("/");
      if (/^[a-z][a-z0-9+.-]*:/i.test(t) || t.startsWith("/") || !packed.has(resolved)) {
        errors.push(`pkg/${file}:${line}: ${target}: not a file of the tarball`);
      } else if (anchor && resolved.endsWith(".md") && !headings.get(resolved).has(anchor.toLowerCase())) {
        errors.push(`pkg/${file}:${line}: ${target}: ${resolved} has no heading #${anchor}`);
      }
    }
  }
  const readme = readFileSync(join(pkg, "README.md"), "utf8");
  for (const need of ["CHANGELOG.md", "docs/browser-apps.md", "docs/auth.md", "docs/errors.md"]) {
    if (!readme.includes(`](./${need}`)) errors.push(`pkg/README.md: does not link ./${need}`);
  }
  for (const e of errors) console.log(e);
  console.log(`packed links: ${errors.length ? "FAILED" : "ok"}: ${pages.length} Markdown files in the tarball (${pages.join(", ")}), ${errors.length} broken`);
  process.exit(errors.length ? 1 : 0);
}

const asked = process.argv.slice(2);
const markdown = (asked.length ? asked.map((f) => relative(root, join(process.cwd(), f)).split(sep).join("/")) : files).filter((f) =>
  f.endsWith(".md"),
);
const errors = [];
for (const file of markdown) {
  const text = readFileSync(join(root, file), "utf8");
  for (const { line, target } of links(text)) {
    const why = problem(file, target);
    if (why) errors.push(`${file}:${line}: ${target}: ${why}`);
  }
  for (const { line, name } of namedInCode(text)) {
    if (!namedExists(file, name)) errors.push(`${file}:${line}: \`${name}\`: names a Markdown file that is not in the repository`);
  }
}
// The README is a newcomer's first page: detail goes to docs/ beyond README_LIMIT bytes.
const README_LIMIT = 20_000;
for (const readme of ["README.md", "js/README.md"]) {
  const readmeBytes = readFileSync(join(root, readme)).length;
  if (readmeBytes > README_LIMIT) {
    errors.push(`${readme}: ${readmeBytes} bytes, over the limit of ${README_LIMIT}: move detail to docs/`);
  }
}
for (const e of errors) console.log(e);
console.log(`links: ${errors.length ? "FAILED" : "ok"}: ${markdown.length} Markdown files, ${errors.length} links outside the repository or broken`);
process.exit(errors.length ? 1 : 0);
