//! The files generated from the error model (core/src/error.rs), from `ClientEvent`
//! (core/src/model/events.rs) and from the operation table
//! (vocab/src/operations.rs, vocab/src/query.rs: js/query.js, js/query.d.ts and
//! docs/operations.md) are fresh: `make generate` writes them, and
//! this test (in `make test`) fails when one was not regenerated.

use estatekit_core::error::{javascript, typescript};

#[test]
fn the_error_model_declarations_are_generated_from_the_rust_model() {
    let committed = include_str!("../../web/src/api_error.d.ts");
    assert!(
        committed == typescript(),
        "web/src/api_error.d.ts is stale: run `make generate` (it is made from core/src/error.rs)"
    );
}

/// The text of `file` between its `// BEGIN GENERATED (marker)` and `// END GENERATED (marker)`.
fn block<'a>(file: &'a str, marker: &str) -> Option<&'a str> {
    file.split_once(&format!("// BEGIN GENERATED ({marker})\n"))
        .and_then(|(_, rest)| rest.split_once(&format!("// END GENERATED ({marker})")))
        .map(|(block, _)| block)
}

#[test]
fn the_error_model_lists_of_api_error_js_are_generated_from_the_rust_model() {
    let file = include_str!("../../js/api_error.js");
    assert!(
        block(file, "error model") == Some(javascript().as_str()),
        "js/api_error.js's generated block is stale: run `make generate` (it is made from core/src/error.rs)"
    );
}

#[test]
fn the_query_factories_are_generated_from_the_operation_table() {
    let made = |block: Result<String, estatekit_vocab::query::QueryError>| {
        block.unwrap_or_else(|error| panic!("{error}"))
    };
    let js = include_str!("../../js/query.js");
    assert!(
        block(js, "operation table") == Some(made(estatekit_vocab::query::javascript()).as_str()),
        "js/query.js's generated block is stale: run `make generate` (it is made from vocab/src/operations.rs and vocab/src/query.rs)"
    );
    let ts = include_str!("../../js/query.d.ts");
    assert!(
        block(ts, "operation table") == Some(made(estatekit_vocab::query::typescript()).as_str()),
        "js/query.d.ts's generated block is stale: run `make generate` (it is made from vocab/src/operations.rs and vocab/src/query.rs)"
    );
}

#[test]
fn the_event_keys_of_events_js_are_generated_from_client_event() {
    let js = include_str!("../../js/events.js");
    let expected = estatekit_core::model::events::javascript().expect("every event serialises");
    assert!(
        block(js, "client events") == Some(expected.as_str()),
        "js/events.js's generated block is stale: run `make generate` (it is made from `ClientEvent` in core/src/model/events.rs)"
    );
}

#[test]
fn the_docs_operation_list_is_generated_from_the_operation_table() {
    assert!(
        include_str!("../../docs/operations.md") == estatekit_vocab::operations::markdown(),
        "docs/operations.md is stale: run `make generate` (it is made from vocab/src/operations.rs)"
    );
}
