// The package's current figures, kept in one place: docs/figures.md. `make size` writes its size
// section and `make bench` (a full run on pkg/) its speed section; every other document quotes a
// current figure only behind a marker, `<!-- figure:KEY -->156,253`, which `make size` rewrites
// too and tests/docs/figures.test.mjs holds against what `make size` measures (within 1 %). A figure without a marker is history and
// says so (a date, a "then"), or it is not quoted at all and a link to docs/figures.md serves.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The file both commands write. */
export const FIGURES = fileURLToPath(new URL("../docs/figures.md", import.meta.url));

/** How far a quoted figure may be from the measured one before the test fails. */
export const TOLERANCE = 0.01;

const begin = (name) => `<!-- begin ${name}: written by \`make ${name}\`, do not edit by hand -->`;
const end = (name) => `<!-- end ${name} -->`;

/** `text` with the section `name` (between its two markers) replaced by `body`. */
export function replaceSection(text, name, body) {
  const [a, b] = [begin(name), end(name)];
  const from = text.indexOf(a);
  const to = text.indexOf(b);
  if (from < 0 || to < from) throw new Error(`docs/figures.md has no section "${name}" (its markers ${a} ... ${b})`);
  return `${text.slice(0, from + a.length)}\n${body.trimEnd()}\n${text.slice(to)}`;
}

/** Writes `body` as section `name` of docs/figures.md. */
export function writeSection(name, body, file = FIGURES) {
  writeFileSync(file, replaceSection(readFileSync(file, "utf8"), name, body));
}

/** A number as the documents write it: 156,253. */
export const format = (n) => n.toLocaleString("en-US");

/** A figure behind its marker: `<!-- figure:main -->**156,253**`. */
export const marked = (key, n) => `<!-- figure:${key} -->${format(n)}`;

const MARKER = /<!-- figure:([a-z0-9-]+) -->\**([0-9][0-9,]*)/g;

/** Every marked figure of `text`: its key, its value and its line. */
export function figuresIn(text) {
  const found = [];
  for (const m of text.matchAll(MARKER)) {
    const line = text.slice(0, m.index).split("\n").length;
    found.push({ key: m[1], value: Number(m[2].replaceAll(",", "")), line });
  }
  return found;
}

/**
 * What is wrong with the marked figures of `text` (named `file`) against `measured` (key -> bytes):
 * a key that `make size` does not measure, or a value more than TOLERANCE from the measured one.
 */
export function staleFigures(file, text, measured) {
  const problems = [];
  for (const { key, value, line } of figuresIn(text)) {
    if (!(key in measured)) {
      problems.push(`${file}:${line}: figure:${key} is not a figure \`make size\` measures (${Object.keys(measured).join(", ")})`);
      continue;
    }
    const now = measured[key];
    if (Math.abs(value - now) > now * TOLERANCE) {
      problems.push(`${file}:${line}: figure:${key} says ${format(value)}; \`make size\` measures ${format(now)} (more than ${TOLERANCE * 100} % apart)`);
    }
  }
  return problems;
}

/** `text` with every marked figure set to its measured value (the keys `measured` has). */
export function refreshFigures(text, measured) {
  return text.replace(MARKER, (whole, key, value) => (key in measured ? whole.slice(0, whole.length - value.length) + format(measured[key]) : whole));
}
