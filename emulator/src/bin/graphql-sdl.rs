//! Prints the GraphQL schema of the messages query (the emulator's, async-graphql's SDL):
//! docs/messages.graphql, shipped as `estatekit/messages.graphql` (`make generate`;
//! emulator/tests/graphql_sdl.rs fails when the committed file is stale).

fn main() {
    print!("{}", estatekit_emulator::graphql::sdl());
}
