//! docs/messages.graphql (shipped as `estatekit/messages.graphql`) is the messages query's
//! schema as the emulator serves it: `make generate` writes it, this test fails when it is stale.

#[test]
fn the_published_graphql_schema_is_the_emulators() {
    let committed = include_str!("../../docs/messages.graphql");
    assert!(
        committed == estatekit_emulator::graphql::sdl(),
        "docs/messages.graphql is stale: run `make generate` (it is made from emulator/src/graphql.rs)"
    );
}
