//! The files generated from the error model (core/src/error.rs) are fresh: `make generate`
//! writes them, and this test (in `make test`) fails when one was not regenerated.

use estatekit_core::error::{javascript, typescript};

#[test]
fn the_error_model_declarations_are_generated_from_the_rust_model() {
    let committed = include_str!("../../web/src/api_error.d.ts");
    assert!(
        committed == typescript(),
        "web/src/api_error.d.ts is stale: run `make generate` (it is made from core/src/error.rs)"
    );
}

#[test]
fn the_error_model_lists_of_api_error_js_are_generated_from_the_rust_model() {
    let file = include_str!("../../js/api_error.js");
    let begin = "// BEGIN GENERATED (error model)\n";
    let block = file
        .split_once(begin)
        .and_then(|(_, rest)| rest.split_once("// END GENERATED (error model)"))
        .map(|(block, _)| block);
    assert!(
        block == Some(javascript().as_str()),
        "js/api_error.js's generated block is stale: run `make generate` (it is made from core/src/error.rs)"
    );
}
