//! Prints the docs' operation list (docs/operations.md), made from the
//! operation table (src/operations.rs).

fn main() {
    print!("{}", estatekit_vocab::operations::markdown());
}
