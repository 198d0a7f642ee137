//! Prints the OpenAPI 3.1 description of the service's REST operations (docs/openapi.json),
//! written from the operation table and the model's JSON Schemas (`estatekit_core::openapi`).

fn main() {
    print!("{}", estatekit_core::openapi::document());
}
