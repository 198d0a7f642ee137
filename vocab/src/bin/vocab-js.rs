//! Prints the package's JavaScript constants of the closed lists (`vocab.js` in the package),
//! generated from their one definition in this crate.

fn main() {
    print!("{}", estatekit_vocab::javascript());
}
