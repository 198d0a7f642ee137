//! Prints the docs' operation list (README.md's `<!-- operations -->` block), made from the
//! operation table (src/operations.rs).

fn main() {
    print!("{}", estatekit_vocab::operations::markdown());
}
