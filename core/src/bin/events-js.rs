//! Prints js/events.js's generated block (the keys of each `ClientEvent`, in declared order),
//! made from core/src/model/events.rs; `make generate` writes it.

fn main() {
    match estatekit_core::model::events::javascript() {
        Ok(text) => print!("{text}"),
        Err(e) => {
            eprintln!("events-js: an event did not serialise: {e}");
            std::process::exit(1);
        }
    }
}
