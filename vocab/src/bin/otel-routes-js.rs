//! Prints `estatekit/otel`'s table of the client's requests (`otel_routes.js` in the package),
//! generated from its one definition in this crate (src/operations.rs).

fn main() {
    print!("{}", estatekit_vocab::operations::javascript());
}
