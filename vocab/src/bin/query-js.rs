//! Prints `estatekit/query`'s factories, generated from the operation table (src/operations.rs,
//! src/query.rs): `--js` js/query.js's GENERATED block, `--ts` js/query.d.ts's.

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("--js") => print!("{}", estatekit_vocab::query::javascript()),
        Some("--ts") => print!("{}", estatekit_vocab::query::typescript()),
        _ => {
            eprintln!("usage: query-js --js | --ts");
            std::process::exit(2);
        }
    }
}
