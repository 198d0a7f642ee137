// The shape check of estatekit's decoders, run in JavaScript: one call per answer instead of
// one call per field from WebAssembly. `shape` is built by the Rust code from the same data
// (src/api/schema.rs, src/web/shape.rs) and the rules are those of `schema::check`, which runs
// natively in the unit and property tests; a browser test checks both give the same verdicts.
//
// Shapes: "s" string, "b" boolean, "n" number, "o" any object,
// { l: item, n: nullableItems } list, { r: [[name, shape, required], ...] } record.
// Returns null, or [path, reason] for the first mismatch (path: member names and indexes).

const WANT = { s: "string", b: "boolean", n: "number", o: "object" };
const DESCRIBED = {
  null: "null",
  boolean: "a boolean",
  number: "a number",
  string: "a string",
  array: "an array",
  object: "an object",
};

function kind(v) {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "array";
  const t = typeof v;
  return t === "string" || t === "number" || t === "boolean" ? t : "object";
}

function walk(v, shape, path) {
  if (typeof shape === "string") {
    const want = WANT[shape];
    const got = kind(v);
    return got === want ? null : `expected ${DESCRIBED[want]}, got ${DESCRIBED[got]}`;
  }
  if (shape.l !== undefined) {
    if (!Array.isArray(v)) return `expected an array, got ${DESCRIBED[kind(v)]}`;
    for (let i = 0; i < v.length; i++) {
      const e = v[i];
      if (e === null || e === undefined) {
        if (shape.n) continue;
        path.push(i);
        return "expected an element, got null";
      }
      const reason = walk(e, shape.l, path);
      if (reason !== null) {
        path.push(i);
        return reason;
      }
    }
    return null;
  }
  if (kind(v) !== "object") return `expected an object, got ${DESCRIBED[kind(v)]}`;
  const fields = shape.r;
  for (let f = 0; f < fields.length; f++) {
    const field = fields[f];
    const m = v[field[0]];
    if (m === null || m === undefined) {
      if (field[2]) {
        path.push(field[0]);
        return "is missing or null";
      }
      continue;
    }
    const reason = walk(m, field[1], path);
    if (reason !== null) {
      path.push(field[0]);
      return reason;
    }
  }
  return null;
}

export function checkShape(value, shape) {
  const path = [];
  const reason = walk(value, shape, path);
  return reason === null ? null : [path.reverse(), reason];
}
