// EVENT_TYPES and DOCUMENT_TYPES are literal arrays in js/estatekit.js; they must equal, in order,
// the string-literal unions `EventType` and `DocumentType` that the Rust code declares (as found
// in the built glue declarations, pkg/estatekit_wasm.d.ts). Run by `make test-types`.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import ts from "typescript";

const pkg = new URL("../../pkg/", import.meta.url);
const glueDts = fileText("estatekit_wasm.d.ts");
const { EVENT_TYPES, DOCUMENT_TYPES } = await import(new URL("estatekit.js", pkg).href);

function fileText(name) {
  try {
    return readFileSync(new URL(name, pkg), "utf8");
  } catch (e) {
    throw new Error(`pkg/${name}: ${e.message} (run \`make pkg\` first)`);
  }
}

/** The members of `export type <name> = "A" | "B" | ...;`, in source order. */
function union(name) {
  const source = ts.createSourceFile("estatekit_wasm.d.ts", glueDts, ts.ScriptTarget.Latest);
  const alias = source.statements.find((s) => ts.isTypeAliasDeclaration(s) && s.name.text === name);
  assert.ok(alias, `pkg/estatekit_wasm.d.ts declares no type ${name}`);
  const members = ts.isUnionTypeNode(alias.type) ? alias.type.types : [alias.type];
  return members.map((member) => {
    assert.ok(
      ts.isLiteralTypeNode(member) && ts.isStringLiteral(member.literal),
      `${name} has a member that is not a string literal: ${member.getText(source)}`,
    );
    return member.literal.text;
  });
}

for (const [constant, values, type] of [
  ["EVENT_TYPES", EVENT_TYPES, "EventType"],
  ["DOCUMENT_TYPES", DOCUMENT_TYPES, "DocumentType"],
]) {
  test.it(`${constant} lists the members of ${type}, in order, frozen`, () => {
    assert.deepEqual([...values], union(type));
    assert.ok(Object.isFrozen(values), `${constant} is frozen`);
  });
}

// Each closed list is written once, in vocab/src/lib.rs: no other source file of the repository
// spells out a list of event types or document types (a file naming half of a list or more is a
// second copy; the five event types whose `data` shape is known are a fact of their own).
// Tests, documents and generated declarations may name them freely.
test.it("no second hand-written copy of the event types or document types", async () => {
  const { execFileSync } = await import("node:child_process");
  const root = new URL("../../", import.meta.url);
  const files = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((f) => /\.(rs|js|mjs|ts|tsx|html|vue|svelte)$/.test(f))
    .filter((f) => !/^(vocab\/|tests\/|docs\/|bench\/)|\/tests\//.test(f));
  assert.ok(files.length > 50, `read ${files.length} files`);
  const copies = [];
  for (const file of files) {
    const text = readFileSync(new URL(file, root), "utf8");
    for (const [what, list] of [["event types", EVENT_TYPES], ["document types", DOCUMENT_TYPES]]) {
      const named = list.filter((name) => new RegExp(`["'\`]${name.replace("-", "\\-")}["'\`]`).test(text));
      if (named.length >= list.length / 2) copies.push(`${file}: ${named.length} ${what}`);
    }
  }
  assert.deepEqual(copies, [], "define the list in vocab/src/lib.rs and read it from there");
});
