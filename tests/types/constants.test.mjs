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
