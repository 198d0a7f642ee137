//! The OpenAPI 3.1 description of the service's REST and GraphQL operations (docs/openapi.json,
//! shipped as `estatekit/openapi.json`), written from the operation table (estatekit-vocab's
//! `operations`: each operation's route, fields, answer, paging, retry class and unknown-outcome
//! advice) and the model's JSON Schemas (schemars derives of core/src/model, the `schema`
//! feature: nothing here enters a WebAssembly module). The `openapi` binary prints it; `make
//! generate` writes it and core/tests/openapi.rs fails when the committed file is stale.
//!
//! What the interface leaves unknown is marked with an `x-unknown` note where it applies.
//! `operationId`s are the client's method names. Enums in answers stay open strings, as the
//! client reads them.

use crate::model::documents::{DocumentMetadata, DocumentRecord, ListDocumentsQuery};
use crate::model::messages::{GraphPaging, GraphSorting, Message, MessageFilter};
use crate::model::webhooks::{RegisterWebhookInput, Webhook};
use estatekit_events::Delivery;
use estatekit_vocab::operations::{At, Field, GrantType, Operation, Resend};
use estatekit_vocab::{DocumentType, EventType, ImageFormat, EVENT_TYPES};
use schemars::generate::SchemaSettings;
use schemars::SchemaGenerator;
use serde_json::{json, Map, Value};

/// Where the components' schemas are.
const SCHEMAS: &str = "#/components/schemas/";

/// The sign-in dialog of the authorization-code flow (service-notes: the vendor's example).
const AUTHORIZE: &str = "/accounts/dialog/authorize";

/// Sets `key` of the object `target` (nothing when it is not one).
fn set(target: &mut Value, key: &str, value: Value) {
    if let Some(object) = target.as_object_mut() {
        object.insert(key.to_owned(), value);
    }
}

/// The model's types by the names TypeScript gives them (the table's `ts` columns): their
/// schemas, made by schemars from the Rust types, as `$ref`s into the components.
fn named(generator: &mut SchemaGenerator, ts: &str) -> Option<Value> {
    let schema = match ts {
        "MessageFilter" => generator.subschema_for::<MessageFilter>(),
        "GraphPaging" => generator.subschema_for::<GraphPaging>(),
        "GraphSorting" => generator.subschema_for::<GraphSorting>(),
        "Message" => generator.subschema_for::<Message>(),
        "DocumentMetadata" => generator.subschema_for::<DocumentMetadata>(),
        "ListDocumentsQuery" => generator.subschema_for::<ListDocumentsQuery>(),
        "DocumentRecord" => generator.subschema_for::<DocumentRecord>(),
        "DocumentType" => generator.subschema_for::<DocumentType>(),
        "ImageFormat" => generator.subschema_for::<ImageFormat>(),
        "RegisterWebhookInput" => generator.subschema_for::<RegisterWebhookInput>(),
        "Webhook" => generator.subschema_for::<Webhook>(),
        "EventType" => generator.subschema_for::<EventType>(),
        _ => return None,
    };
    Some(schema.to_value())
}

/// The JSON Schema of a TypeScript type of the table (`string`, `number`, `Blob`, a model
/// type, `T[]`, `T | null`, `(T)`).
fn schema_of(generator: &mut SchemaGenerator, ts: &str) -> Value {
    let ts = ts.trim();
    if let Some(inner) = ts.strip_suffix("[]") {
        return json!({ "type": "array", "items": schema_of(generator, inner) });
    }
    if let Some(inner) = ts.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        return schema_of(generator, inner);
    }
    if let Some(inner) = ts.strip_suffix("| null") {
        return json!({ "anyOf": [schema_of(generator, inner), { "type": "null" }] });
    }
    match ts {
        "string" => json!({ "type": "string" }),
        "number" => json!({ "type": "number" }),
        "Blob" => json!({ "type": "string", "contentMediaType": "application/octet-stream" }),
        other => named(generator, other).unwrap_or_else(|| json!({ "x-unknown": other })),
    }
}

/// `schema` without `null` among its types (a parameter is absent, never null).
fn not_null(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Some(Value::Array(types)) = schema.get_mut("type") {
        types.retain(|t| t != "null");
        if let [only] = types.as_slice() {
            let only = only.clone();
            set(&mut schema, "type", only);
        }
    }
    schema
}

/// The schema of a query field: the property of the method's query type where it has one (the
/// Rust type's), else its TypeScript type's.
fn query_schema(generator: &mut SchemaGenerator, op: Operation, field: &Field) -> Value {
    let of_type = op.params().first().and_then(|p| {
        named(generator, p.ts)?;
        let name = p.ts;
        let definition = generator.definitions().get(name)?;
        definition.get("properties")?.get(field.name).cloned()
    });
    not_null(&of_type.unwrap_or_else(|| schema_of(generator, field.ts)))
}

/// The operation's path and query parameters.
fn parameters(generator: &mut SchemaGenerator, op: Operation) -> Vec<Value> {
    let mut out = Vec::new();
    for field in op.fields() {
        let at = match field.at {
            At::Path => "path",
            At::Query => "query",
            At::Body | At::Form => continue,
        };
        let schema = match field.at {
            At::Query => query_schema(generator, op, field),
            _ => schema_of(generator, field.ts),
        };
        let mut parameter = json!({
            "name": field.name,
            "in": at,
            "required": !field.optional,
            "schema": schema,
        });
        if field.ts.ends_with("[]") {
            set(&mut parameter, "style", json!("form"));
            set(&mut parameter, "explode", json!(true));
            set(&mut parameter, "description", json!(
                "Sent as a repeated key (`types=A&types=B`); whether the service also takes a comma list is unknown."
            ));
        }
        out.push(parameter);
    }
    out
}

/// An object schema of `fields` (a JSON body's keys, the GraphQL variables, a form's parts).
fn object_of(generator: &mut SchemaGenerator, fields: &[&Field]) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for field in fields {
        let schema = match (field.at, field.ts) {
            // A form part holding a JSON document (the upload's metadata).
            (At::Form, ts) if named(generator, ts).is_some() => json!({
                "type": "string",
                "contentMediaType": "application/json",
                "contentSchema": schema_of(generator, ts),
            }),
            (_, ts) => schema_of(generator, ts),
        };
        properties.insert(field.name.to_owned(), schema);
        if !field.optional {
            required.push(field.name);
        }
    }
    json!({ "type": "object", "properties": properties, "required": required })
}

/// The operation's request body, if it sends one.
fn request_body(generator: &mut SchemaGenerator, op: Operation) -> Option<Value> {
    let fields =
        |at: At| -> Vec<&'static Field> { op.fields().iter().filter(|f| f.at == at).collect() };
    if let Some((kind, name)) = op.route().graphql {
        let variables = object_of(generator, &fields(At::Body));
        return Some(json!({
            "required": true,
            "content": { "application/json": { "schema": {
                "type": "object",
                "required": ["query", "variables"],
                "properties": {
                    "query": {
                        "type": "string",
                        "description": format!("The GraphQL text of `{kind} {name}(...)` (docs/messages.graphql is the schema); the client selects the fields its options name."),
                    },
                    "variables": variables,
                },
            } } },
            "description": "At least one of candidateId, contactId and listingId must be given, else the service answers an error (how: not documented). `externalContactId` is used by the interface's examples but not declared by its `MessageFilter`.",
        }));
    }
    let body = fields(At::Body);
    if !body.is_empty() {
        // The method's input type when it is a model type (its Rust type's schema), else the
        // row's fields.
        let schema = op
            .params()
            .first()
            .and_then(|p| named(generator, p.ts))
            .unwrap_or_else(|| object_of(generator, &body));
        return Some(json!({
            "required": true,
            "content": { "application/json": { "schema": schema } },
        }));
    }
    let form = fields(At::Form);
    if !form.is_empty() {
        return Some(json!({
            "required": true,
            "content": { "multipart/form-data": {
                "schema": object_of(generator, &form),
                "encoding": { "metadata": { "contentType": "application/json" } },
            } },
            "description": "`metadata`: the client sends `{}` when the caller gives none (the interface requires the part). `format`: any image is converted to it.",
        }));
    }
    None
}

/// The headers every API answer carries (the rate limit's) and the request id.
fn rate_headers() -> Value {
    json!({
        "X-RateLimit-Limit": { "$ref": "#/components/headers/X-RateLimit-Limit" },
        "X-RateLimit-Remaining": { "$ref": "#/components/headers/X-RateLimit-Remaining" },
        "X-RateLimit-Reset": { "$ref": "#/components/headers/X-RateLimit-Reset" },
    })
}

/// The status of a success as the interface documents it (4.1, 4.6-4.8), else `2XX`.
fn success_status(op: Operation) -> &'static str {
    match op {
        Operation::ListMessages | Operation::ListWebhooks | Operation::RegisterWebhook => "200",
        Operation::DeleteWebhook => "204",
        _ => "2XX",
    }
}

/// The operation's answers: its success (from the row's `answer`) and the errors.
fn responses(generator: &mut SchemaGenerator, op: Operation) -> Value {
    let mut out = Map::new();
    let status = success_status(op);
    let success = match (op, op.answer()) {
        (Operation::ListMessages, answer) => json!({ status: {
            "description": "A GraphQL result: `data.messages` is the page (a page shorter than `take` is the last), or `errors` (possibly with status 200).",
            "headers": rate_headers(),
            "content": { "application/json": { "schema": {
                "type": "object",
                "properties": {
                    "data": {
                        "type": ["object", "null"],
                        "properties": { "messages": {
                            "anyOf": [schema_of(generator, answer), { "type": "null" }],
                        } },
                    },
                    "errors": { "$ref": format!("{SCHEMAS}GraphqlErrors") },
                },
            } } },
        } }),
        (_, "void") => json!({ status: {
            "description": "Deleted, with no body the client reads (the interface documents 204 for a webhook; a document's answer is not shown).",
            "headers": rate_headers(),
        } }),
        (Operation::RegisterWebhook, _) => json!({ status: {
            "description": "Registered. The new webhook's id is in `Location` (a bare id, not a URL). The body is not documented: the client reads an `id` from it when `Location` is missing.",
            "headers": {
                "Location": { "required": true, "schema": { "type": "string" }, "description": "The new webhook's id." },
            },
        } }),
        (_, answer) => json!({ status: {
            "description": match status {
                "2XX" => format!("The answer the client resolves `{}` with (its status is not documented: any 2xx).", op.name()),
                _ => format!("The answer the client resolves `{}` with.", op.name()),
            },
            "headers": rate_headers(),
            "content": { "application/json": { "schema": schema_of(generator, answer) } },
        } }),
    };
    if let Value::Object(success) = success {
        out.extend(success);
    }
    for (status, name) in [
        ("401", "Unauthorized"),
        ("403", "Forbidden"),
        ("429", "TooManyRequests"),
        ("default", "Error"),
    ] {
        out.insert(
            status.to_owned(),
            json!({ "$ref": format!("#/components/responses/{name}") }),
        );
    }
    Value::Object(out)
}

/// The row's retry class, as the description says it.
fn resend(op: Operation) -> &'static str {
    match op.spec().resend {
        Resend::Idempotent => "idempotent: the client sends it again after a failure it may retry",
        Resend::NotIdempotent => "not idempotent: the client sends it again only after an answer that says the service did not act (429, 503)",
        Resend::Never => "single-use: never sent twice",
    }
}

/// The OpenAPI operation of `op`'s own request.
fn operation(generator: &mut SchemaGenerator, op: Operation) -> Value {
    let mut out = json!({
        "operationId": op.name(),
        "summary": op.phrase(),
        "description": format!(
            "`client.{}()`. Retry: {}. When its outcome is unknown: {}.",
            op.name(),
            resend(op),
            op.spec().unknown_outcome,
        ),
        "x-estatekit-pages": op.pages(),
        "responses": responses(generator, op),
    });
    let parameters = parameters(generator, op);
    if !parameters.is_empty() {
        set(&mut out, "parameters", Value::Array(parameters));
    }
    if let Some(body) = request_body(generator, op) {
        set(&mut out, "requestBody", body);
    }
    if matches!(
        op,
        Operation::UploadDocument
            | Operation::ListDocuments
            | Operation::GetDocument
            | Operation::DeleteDocument
    ) {
        set(&mut out, "x-unknown", json!(
            "The document endpoints' authentication, errors and answer shapes are not shown by the interface; the schemas are what the client reads (every other field is kept)."
        ));
    }
    out
}

/// The components' fixed parts: the error answers and the rate-limit headers.
fn components() -> Value {
    let error = |description: &str| {
        json!({
            "description": description,
            "content": { "application/json": { "schema": { "$ref": format!("{SCHEMAS}Error") } } },
        })
    };
    let mut too_many = error("Over the rate limit (300 requests a minute per API, for the account). The body and `Retry-After` are unknown.");
    let mut headers = rate_headers();
    set(
        &mut headers,
        "Retry-After",
        json!({
            "schema": { "type": "string" },
            "description": "Unknown whether the service sends it (seconds or an HTTP date when it does).",
        }),
    );
    set(&mut too_many, "headers", headers);
    json!({
        "responses": {
            "Unauthorized": error("A missing, unknown or expired access token: get a new one with the refresh token and send again."),
            "Forbidden": error("The caller is not authorized (the interface documents `{\"code\": \"server_error\", \"statusCode\": 403}` for the webhooks list)."),
            "TooManyRequests": too_many,
            "Error": error("Any other error. Bodies other than the documented 403's are unknown: the client reads `code`, `statusCode` and `message` when present."),
        },
        "headers": {
            "X-RateLimit-Limit": { "schema": { "type": "integer" }, "description": "Requests allowed per window." },
            "X-RateLimit-Remaining": { "schema": { "type": "integer" }, "description": "Requests left in the window." },
            "X-RateLimit-Reset": { "schema": { "type": "integer" }, "description": "Seconds until the window resets (relative, not a timestamp). Whether browsers can read it (CORS) is unknown." },
        },
        "securitySchemes": {
            "bearer": {
                "type": "http",
                "scheme": "bearer",
                "bearerFormat": "JWT",
                "description": "An access token (RS256 JWT, about an hour by default).",
            },
            "oauth2": {
                "type": "oauth2",
                "description": "Tokens from the token endpoint (JSON bodies as documented; form bodies and HTTP Basic client authentication as the standard libraries send them). Every grant needs the client secret: servers only. At most 50 refresh tokens per client and user. Whether PKCE is required is unknown.",
                "flows": {
                    "password": {
                        "tokenUrl": GrantType::Password.route().template,
                        "refreshUrl": GrantType::RefreshToken.route().template,
                        "scopes": { "offline_access": "a refresh token", "*": "every API" },
                    },
                    "authorizationCode": {
                        "authorizationUrl": AUTHORIZE,
                        "tokenUrl": GrantType::AuthorizationCode.route().template,
                        "refreshUrl": GrantType::RefreshToken.route().template,
                        "scopes": { "offline_access": "a refresh token", "*": "every API" },
                    },
                },
            },
        },
    })
}

/// The fixed schemas: the error body and GraphQL's errors.
fn fixed_schemas() -> Value {
    json!({
        "Error": {
            "type": "object",
            "description": "The documented error body (`{\"code\": \"server_error\", \"statusCode\": 403}`); other bodies are unknown, so every key is optional and others may come.",
            "properties": {
                "code": { "type": "string" },
                "statusCode": { "type": "integer" },
                "message": { "type": "string" },
            },
        },
        "GraphqlErrors": {
            "type": "array",
            "description": "GraphQL's standard `errors` (the interface says only that an error is returned).",
            "items": {
                "type": "object",
                "properties": {
                    "message": { "type": "string" },
                    "path": { "type": "array" },
                    "extensions": { "type": "object" },
                },
            },
        },
    })
}

/// The 28 event types' deliveries (OpenAPI 3.1's `webhooks`): one envelope, `operation` the type.
fn webhooks(generator: &mut SchemaGenerator) -> Value {
    let envelope = generator.subschema_for::<Delivery<Value>>().to_value();
    let mut out = Map::new();
    for event in EVENT_TYPES {
        out.insert(
            (*event).to_owned(),
            json!({ "post": {
                "operationId": event,
                "summary": format!("{event} delivery"),
                "description": "Sent to the URL of each webhook registered for this type. The `data` shapes of LISTING_CANDIDATE_APPLIED, CANDIDATE_PARSED, LISTING_CANDIDATE_SCHEDULE_INVITED_VIEWING, LISTING_CONTRACT_FLOW_STARTED and LISTING_CONTRACT_FLOW_SIGNED are in the client's `estatekit/webhooks` types; the others' are unknown.",
                "x-unknown": "Delivery method, headers, signing, retries and the expected answer are not documented (presumably unsigned JSON POSTs).",
                "requestBody": {
                    "required": true,
                    "content": { "application/json": { "schema": {
                        "allOf": [envelope],
                        "properties": { "operation": { "const": event } },
                    } } },
                },
                "responses": { "2XX": { "description": "Received." } },
            } }),
        );
    }
    Value::Object(out)
}

/// `components.schemas` without the schemas nothing refers to (a query type, read only for its
/// properties' schemas by [`query_schema`]): what is left is referred to from `roots` or from
/// the components (another schema, a response).
fn unreferenced_removed(components: &mut Value, roots: &impl serde::Serialize) {
    loop {
        let text = serde_json::to_string(&(roots, &*components)).unwrap_or_default();
        let Some(Value::Object(schemas)) = components.get_mut("schemas") else {
            return;
        };
        let unused: Vec<String> = schemas
            .keys()
            .filter(|name| !text.contains(&format!("\"#/components/schemas/{name}\"")))
            .cloned()
            .collect();
        if unused.is_empty() {
            return;
        }
        for name in unused {
            schemas.remove(&name);
        }
    }
}

/// The package's version (js/package.json).
fn version() -> String {
    serde_json::from_str::<Value>(include_str!("../../js/package.json"))
        .ok()
        .and_then(|p| p.get("version")?.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The description, as pretty-printed JSON with a final newline.
pub fn document() -> String {
    let mut settings = SchemaSettings::draft2020_12();
    settings.definitions_path = "/components/schemas".into();
    let mut generator = settings.into_generator();

    let mut paths: Map<String, Value> = Map::new();
    for &op in Operation::ALL {
        // An operation whose first request is another row's (ensureWebhook) has none of its own.
        let own = Operation::ALL
            .iter()
            .take_while(|&&other| other != op)
            .all(|other| other.route() != op.route());
        if !own {
            continue;
        }
        let route = op.route();
        let item = paths
            .entry(route.template.to_owned())
            .or_insert_with(|| json!({}));
        let method = route.method.to_ascii_lowercase();
        set(item, &method, operation(&mut generator, op));
    }
    let webhooks = webhooks(&mut generator);
    let mut components = components();
    let mut schemas = Map::new();
    for (name, schema) in generator.take_definitions(true) {
        schemas.insert(name, schema);
    }
    if let Value::Object(fixed) = fixed_schemas() {
        schemas.extend(fixed);
    }
    set(&mut components, "schemas", Value::Object(schemas));
    unreferenced_removed(&mut components, &(&paths, &webhooks));

    let document = json!({
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
        "info": {
            "title": "Property-management service (messages, documents, webhooks)",
            "version": version(),
            "description": "The service's interface as the estatekit client uses it, written from its operation table (vocab/src/operations.rs) and model (core/src/model) by `make generate`. `operationId`s are the client's method names. Every answer may carry fields not listed here, and enum-like strings in answers may take values not listed (the client keeps both). `x-unknown` marks what the interface does not document. The messages query's GraphQL schema is `estatekit/messages.graphql`.",
            "license": { "name": "MIT OR Apache-2.0", "identifier": "MIT OR Apache-2.0" },
        },
        "servers": [{
            "url": "https://{subdomain}.{domain}",
            "description": "Each account has its own host; staging hosts use other domains.",
            "variables": {
                "subdomain": { "default": "your-subdomain", "description": "The account's subdomain." },
                "domain": { "default": "example.com", "description": "The vendor's domain (not documented here)." },
            },
        }],
        "security": [{ "bearer": [] }, { "oauth2": [] }],
        "paths": paths,
        "webhooks": webhooks,
        "components": components,
    });
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}
