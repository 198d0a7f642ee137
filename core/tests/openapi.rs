//! docs/openapi.json (shipped as `estatekit/openapi.json`) is what the operation table and the
//! model write (`estatekit_core::openapi`): `make generate` writes it, this test fails when a row
//! or a model type changed without regenerating it. Run by `make test-openapi` (the `schema`
//! feature; nothing of it is in a WebAssembly module).
#![cfg(feature = "schema")]

#[test]
fn the_openapi_description_is_generated_from_the_operation_table() {
    let committed = include_str!("../../docs/openapi.json");
    assert!(
        committed == estatekit_core::openapi::document(),
        "docs/openapi.json is stale: run `make generate` (it is made from vocab/src/operations.rs and core/src/model)"
    );
}
