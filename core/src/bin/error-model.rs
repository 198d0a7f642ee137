//! Prints a file generated from the error model (core/src/error.rs): `--ts` the declarations
//! (web/src/api_error.d.ts), `--js` js/api_error.js's generated block, `--table` every kind and
//! status with its `retryable` (JSON lines, for the test of the JavaScript constructor), `--rule`
//! the retry rule in words (what the documents' `<!-- rule:retry -->` markers hold).

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_default();
    match arg.as_str() {
        "--ts" => print!("{}", estatekit_core::error::typescript()),
        "--js" => print!("{}", estatekit_core::error::javascript()),
        "--table" => print!("{}", estatekit_core::error::retryable_table()),
        "--rule" => print!("{}", estatekit_core::error::retry_rule_text()),
        _ => {
            eprintln!("usage: error-model --ts | --js | --table | --rule");
            std::process::exit(2);
        }
    }
}
