//! `wasm-names IN.wasm OUT.wasm < NAMES.json`: the module IN with its imports and exports renamed
//! as NAMES says, written to OUT (which may be IN; `-`: to stdout). scripts/short-imports.mjs
//! chooses the names (issue 63, "The next bytes"; bench/README.md, "The lean build") and runs
//! this tool.
//!
//! NAMES is `{"imports": [[module, name, newModule, newName], ...], "exports": {"name": "newName",
//! ...}}`: `imports` lists every import of IN, in the import section's order (what
//! `WebAssembly.Module.imports` gives), each with its new module and name; `exports` renames the
//! exports it names, and keeps the others. The import and export sections are read by
//! wasmparser and written again by wasm-encoder (the Bytecode Alliance's crates, on which walrus,
//! wasm-bindgen's module processor, is built); every other section, the code included, is
//! copied byte for byte, in its place. Only names change. Nothing is written, and the tool exits
//! 1 with the reason, when IN is not a core module or NAMES does not match IN's imports and
//! exports exactly (an import missing, out of order or of another name, an export to rename that
//! IN does not have).

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::process::ExitCode;

use serde::Deserialize;
use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasm_encoder::{ExportSection, ImportSection, Module, RawSection};
use wasmparser::{Encoding, Parser, Payload};

/// The new names, as scripts/short-imports.mjs writes them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Names {
    /// Every import, in order: its module and name, then its new module and name.
    imports: Vec<(String, String, String, String)>,
    /// The exports to rename: old name to new name.
    exports: BTreeMap<String, String>,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        eprintln!("usage: wasm-names IN.wasm OUT.wasm < NAMES.json");
        return ExitCode::from(2);
    };
    match run(input, output) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("wasm-names: {input}: {why}");
            ExitCode::FAILURE
        }
    }
}

fn run(input: &str, output: &str) -> Result<(), String> {
    let mut json = String::new();
    std::io::stdin()
        .read_to_string(&mut json)
        .map_err(|e| format!("reading the names from stdin: {e}"))?;
    let names: Names =
        serde_json::from_str(&json).map_err(|e| format!("the names on stdin: {e}"))?;
    let bytes = std::fs::read(input).map_err(|e| format!("reading it: {e}"))?;
    let renamed = rename(&bytes, &names)?;
    if output == "-" {
        std::io::stdout()
            .write_all(&renamed)
            .map_err(|e| format!("writing to stdout: {e}"))
    } else {
        std::fs::write(output, renamed).map_err(|e| format!("writing {output}: {e}"))
    }
}

/// The module `bytes` with the names of `names`.
fn rename(bytes: &[u8], names: &Names) -> Result<Vec<u8>, String> {
    let mut module = Module::new();
    let mut imports_seen = 0;
    let mut exports_renamed = BTreeSet::new();
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload.map_err(|e| format!("not a valid module: {e}"))?;
        match payload {
            Payload::Version { encoding, .. } => {
                if encoding != Encoding::Module {
                    return Err("a component, not a core module".into());
                }
            }
            Payload::ImportSection(reader) => {
                let mut section = ImportSection::new();
                for import in reader.into_imports() {
                    let import = import.map_err(|e| format!("its import section: {e}"))?;
                    let Some((module, name, new_module, new_name)) =
                        names.imports.get(imports_seen)
                    else {
                        return Err(format!(
                            "it has more than the {} imports named",
                            names.imports.len()
                        ));
                    };
                    if import.module != module || import.name != name {
                        return Err(format!(
                            "its import {imports_seen} is {}.{}, not {module}.{name}",
                            import.module, import.name
                        ));
                    }
                    let ty = RoundtripReencoder
                        .entity_type(import.ty)
                        .map_err(|e| format!("import {module}.{name}: {e}"))?;
                    section.import(new_module, new_name, ty);
                    imports_seen += 1;
                }
                module.section(&section);
            }
            Payload::ExportSection(reader) => {
                let mut section = ExportSection::new();
                for export in reader {
                    let export = export.map_err(|e| format!("its export section: {e}"))?;
                    let name = match names.exports.get(export.name) {
                        Some(new_name) => {
                            exports_renamed.insert(export.name);
                            new_name.as_str()
                        }
                        None => export.name,
                    };
                    let kind = RoundtripReencoder
                        .export_kind(export.kind)
                        .map_err(|e| format!("export {}: {e}", export.name))?;
                    section.export(name, kind, export.index);
                }
                module.section(&section);
            }
            other => {
                if let Some((id, range)) = other.as_section() {
                    let data = bytes
                        .get(range)
                        .ok_or("a section's range is outside the module")?;
                    module.section(&RawSection { id, data });
                }
            }
        }
    }
    if imports_seen != names.imports.len() {
        return Err(format!(
            "it has {imports_seen} imports, not the {} named",
            names.imports.len()
        ));
    }
    let missing: Vec<&str> = names
        .exports
        .keys()
        .map(String::as_str)
        .filter(|name| !exports_renamed.contains(name))
        .collect();
    if !missing.is_empty() {
        return Err(format!("no export named {}", missing.join(", ")));
    }
    Ok(module.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_encoder::{
        CodeSection, EntityType, ExportKind, Function, FunctionSection, Instruction, MemoryType,
        TypeSection,
    };

    /// A module with two function imports, a memory import, a function and three exports.
    fn sample() -> Vec<u8> {
        let mut module = Module::new();
        let mut types = TypeSection::new();
        types.ty().function([], []);
        module.section(&types);
        let mut imports = ImportSection::new();
        imports.import(
            "./glue.js",
            "__wbg_log_0123456789abcdef",
            EntityType::Function(0),
        );
        imports.import("./glue.js", "__wbindgen_throw", EntityType::Function(0));
        let memory = MemoryType {
            minimum: 1,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        };
        imports.import("env", "memory", EntityType::Memory(memory));
        module.section(&imports);
        let mut functions = FunctionSection::new();
        functions.function(0);
        module.section(&functions);
        let mut exports = ExportSection::new();
        exports.export("client_list", ExportKind::Func, 2);
        exports.export("__wbindgen_malloc", ExportKind::Func, 2);
        exports.export("kept", ExportKind::Func, 0);
        module.section(&exports);
        let mut code = CodeSection::new();
        let mut body = Function::new([]);
        body.instruction(&Instruction::Call(0));
        body.instruction(&Instruction::End);
        code.function(&body);
        module.section(&code);
        module.finish()
    }

    fn names(imports: &[[&str; 4]], exports: &[(&str, &str)]) -> Names {
        Names {
            imports: imports
                .iter()
                .map(|[a, b, c, d]| (a.to_string(), b.to_string(), c.to_string(), d.to_string()))
                .collect(),
            exports: exports
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
        }
    }

    const IMPORTS: [[&str; 4]; 3] = [
        ["./glue.js", "__wbg_log_0123456789abcdef", "wbg", "a"],
        ["./glue.js", "__wbindgen_throw", "wbg", "b"],
        ["env", "memory", "env", "memory"],
    ];

    fn imports_and_exports(bytes: &[u8]) -> (Vec<String>, Vec<String>) {
        let mut imports = Vec::new();
        let mut exports = Vec::new();
        for payload in Parser::new(0).parse_all(bytes) {
            match payload {
                Ok(Payload::ImportSection(reader)) => {
                    for import in reader.into_imports().flatten() {
                        imports.push(format!("{}.{}", import.module, import.name));
                    }
                }
                Ok(Payload::ExportSection(reader)) => {
                    for export in reader.into_iter().flatten() {
                        exports.push(format!("{}={}", export.name, export.index));
                    }
                }
                _ => {}
            }
        }
        (imports, exports)
    }

    #[test]
    fn renames_the_imports_and_the_exports_named_and_keeps_the_rest() {
        let before = sample();
        let after = rename(
            &before,
            &names(
                &IMPORTS,
                &[("client_list", "a"), ("__wbindgen_malloc", "b")],
            ),
        )
        .unwrap();
        assert_eq!(
            imports_and_exports(&after),
            (
                vec!["wbg.a".into(), "wbg.b".into(), "env.memory".into()],
                vec!["a=2".into(), "b=2".into(), "kept=0".into()]
            )
        );
        assert!(Parser::new(0)
            .parse_all(&after)
            .all(|payload| payload.is_ok()));
        // The names are shorter by what was taken off; the code is the same bytes.
        let taken = "./glue.js".len() * 2
            + "__wbg_log_0123456789abcdef".len()
            + "__wbindgen_throw".len()
            + "client_list".len()
            + "__wbindgen_malloc".len()
            - "wbg".len() * 2
            - 4;
        assert_eq!(before.len() - after.len(), taken);
        assert!(after.ends_with(&before[before.len() - 8..]));
    }

    #[test]
    fn the_same_names_give_the_same_bytes() {
        let same = IMPORTS.map(|[module, name, ..]| [module, name, module, name]);
        let names = names(&same, &[("kept", "kept")]);
        assert_eq!(rename(&sample(), &names), Ok(sample()));
    }

    #[test]
    fn refuses_names_that_do_not_match_the_module() {
        let wrong = [
            (names(&IMPORTS[..2], &[]), "it has more than the 2 imports named"),
            (
                names(&[IMPORTS[1], IMPORTS[0], IMPORTS[2]], &[]),
                "its import 0 is ./glue.js.__wbg_log_0123456789abcdef, not ./glue.js.__wbindgen_throw",
            ),
            (
                names(&[IMPORTS[0], IMPORTS[1], IMPORTS[2], IMPORTS[2]], &[]),
                "it has 3 imports, not the 4 named",
            ),
            (
                names(&IMPORTS, &[("client_list", "a"), ("gone", "b")]),
                "no export named gone",
            ),
        ];
        for (names, why) in wrong {
            assert_eq!(rename(&sample(), &names), Err(why.to_string()));
        }
        assert!(rename(b"\0asm\x0d\0\x01\0", &names(&[], &[])).is_err());
    }
}
