//! Prints `estatekit/query`'s factories and keys, generated from the operation table
//! (src/operations.rs, src/query.rs): `--js` js/query.js's GENERATED block, `--ts` js/query.d.ts's.
//! Fails (status 1, the reason on stderr) when an operation has no factories.

fn main() {
    let block = match std::env::args().nth(1).as_deref() {
        Some("--js") => estatekit_vocab::query::javascript(),
        Some("--ts") => estatekit_vocab::query::typescript(),
        _ => {
            eprintln!("usage: query-js --js | --ts");
            std::process::exit(2);
        }
    };
    match block {
        Ok(text) => print!("{text}"),
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(1);
        }
    }
}
