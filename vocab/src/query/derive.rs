//! The factories of a "plain" row, derived from what the row says (its `params`, its own route,
//! its `fields`, whether it `pages`), so that adding such an operation touches no file of
//! `estatekit/query`. The shapes:
//!
//! - **detail**: `[<id>: string, options?: …]`, one `Path` field `<id>`, `GET` of a template with
//!   one `{<id>}` segment: a query keyed `<resource>.detail(<id>)`;
//! - **delete**: the same with `DELETE`: a mutation `delete` on `<resource>` (variables: the id)
//!   that invalidates `<resource>.all`;
//! - **list**: `[options?: …]` only, no field, `GET` of a template without `{…}`: a query keyed
//!   `<resource>.list()`.
//!
//! None of them reads a page (`pages: false`) or is a GraphQL request. `<resource>` is
//! [`resource`]'s rule. A row of no shape needs its case in `factories` (src/query.rs); without
//! one the generator fails, naming the operation ([`super::QueryError::NoShape`]).

use super::keys::{Key, KeyParam};
use super::{mutation, query, Arg, Factory};
use crate::operations::{At, Field, Operation, Param, Route};

/// The resource a route is of, the `estatekitKeys` group of its operation's keys: the template's
/// literal segment just before its first `{name}` segment
/// (`/api/file-storage/company/documents/{documentId}/metadata`: `documents`), or its last
/// segment when it has none (`/api/external-integrations/webhooks`: `webhooks`).
pub(super) fn resource(route: &Route) -> &'static str {
    let mut last = "";
    for segment in route.template.split('/').filter(|s| !s.is_empty()) {
        if segment.starts_with('{') {
            return last;
        }
        last = segment;
    }
    last
}

/// What the shapes read of a row.
#[derive(Clone, Copy, Debug)]
pub(super) struct Row {
    pub params: &'static [Param],
    pub fields: &'static [Field],
    pub route: &'static Route,
    pub pages: bool,
}

impl Row {
    /// `op`'s row.
    pub fn of(op: Operation) -> Row {
        Row {
            params: op.params(),
            fields: op.fields(),
            route: op.route(),
            pages: op.pages(),
        }
    }
}

/// A derived shape (the module's doc says which rows have which).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// A query of one item by its id (the parameter).
    Detail(Arg),
    /// A mutation deleting one item by its id (the parameter).
    Delete(Arg),
    /// A query of the list, with only the options.
    List,
}

/// `row`'s shape, if it has one.
pub(super) fn shape(row: Row) -> Option<Shape> {
    let route = row.route;
    if row.pages || route.graphql.is_some() {
        return None;
    }
    let args = match row.params.split_last() {
        Some((options, args)) if options.name == "options" && options.optional => args,
        _ => return None,
    };
    let segments = route.template.matches('{').count();
    match (args, row.fields, route.method, segments) {
        ([], [], "GET", 0) => Some(Shape::List),
        ([id], [field], method, 1) if by_id(id, field, route) => match method {
            "GET" => Some(Shape::Detail(*id)),
            "DELETE" => Some(Shape::Delete(*id)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `id` is a required string that is `field`, the template's one `{…}` segment.
fn by_id(id: &Param, field: &Field, route: &Route) -> bool {
    id.ts == "string"
        && !id.optional
        && field.at == At::Path
        && field.name == id.name
        && route.template.contains(&format!("{{{}}}", id.name))
}

/// The words of a camelCase name (`documentId`: `document id`).
fn words(name: &str) -> String {
    name.chars()
        .flat_map(|c| match c.is_uppercase() {
            true => vec![' ', c.to_ascii_lowercase()],
            false => vec![c],
        })
        .collect()
}

/// The key of `op`'s detail query: `<resource>.detail(<id>)`.
fn detail_key(op: Operation, resource: &'static str, id: Arg) -> Key {
    Key {
        resource,
        name: "detail",
        params: vec![KeyParam::new(id.name, &id.jsdoc_type(), id.ts)],
        value: Some(id.name.to_owned()),
        args: id.name.to_owned(),
        what: format!("single {resource}"),
        doc: format!(
            "The key of `{}QueryOptions(client, {})`.",
            op.name(),
            id.name
        ),
    }
}

/// The key of `op`'s list query: `<resource>.list()`.
fn list_key(op: Operation, resource: &'static str) -> Key {
    Key {
        resource,
        name: "list",
        params: Vec::new(),
        value: None,
        args: String::new(),
        what: "lists".to_owned(),
        doc: format!("The key of `{}QueryOptions(client)`.", op.name()),
    }
}

/// `op`'s factories when its row has a derived shape.
pub(super) fn derived(op: Operation) -> Option<Vec<Factory>> {
    let resource = resource(op.route());
    let factory = match shape(Row::of(op))? {
        Shape::Detail(id) => query(op, detail_key(op, resource, id), false, ""),
        Shape::List => query(op, list_key(op, resource), false, ""),
        Shape::Delete(id) => mutation(
            op,
            resource,
            "delete",
            &format!(" (variables: the {})", words(id.name)),
        ),
    };
    Some(vec![factory])
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTIONS: Param = Param {
        name: "options",
        ts: "CallOptions",
        optional: true,
    };
    const WEBHOOK_ID: Param = Param {
        name: "webhookId",
        ts: "string",
        optional: false,
    };
    const ONE_WEBHOOK: Route = Route {
        method: "GET",
        template: "/api/external-integrations/webhooks/{webhookId}",
        graphql: None,
    };
    const ID_FIELD: Field = Field {
        name: "webhookId",
        ts: "string",
        at: At::Path,
        optional: false,
    };

    fn row(params: &'static [Param], route: &'static Route) -> Row {
        Row {
            params,
            fields: &[ID_FIELD],
            route,
            pages: false,
        }
    }

    #[test]
    fn the_resource_is_the_segment_before_the_id_or_the_last() {
        let resources: Vec<(&str, &str)> = Operation::ALL
            .iter()
            .map(|op| (op.name(), resource(op.route())))
            .collect();
        for (name, expected) in [
            ("uploadDocument", "documents"),
            ("getDocument", "documents"),
            ("deleteDocument", "documents"),
            ("listWebhooks", "webhooks"),
            ("registerWebhook", "webhooks"),
            ("ensureWebhook", "webhooks"),
            ("deleteWebhook", "webhooks"),
        ] {
            assert!(
                resources.contains(&(name, expected)),
                "{name}: {resources:?}"
            );
        }
        assert_eq!(resource(&ONE_WEBHOOK), "webhooks");
    }

    #[test]
    fn the_existing_plain_rows_have_their_shapes() {
        let shapes: Vec<(&str, Option<Shape>)> = Operation::ALL
            .iter()
            .map(|&op| (op.name(), shape(Row::of(op))))
            .collect();
        let document = |name| Param {
            name,
            ts: "string",
            optional: false,
        };
        for expected in [
            ("listMessages", None),
            ("uploadDocument", None),
            ("listDocuments", None),
            ("getDocument", Some(Shape::Detail(document("documentId")))),
            (
                "deleteDocument",
                Some(Shape::Delete(document("documentId"))),
            ),
            ("listWebhooks", Some(Shape::List)),
            ("registerWebhook", None),
            ("ensureWebhook", None),
            ("deleteWebhook", Some(Shape::Delete(WEBHOOK_ID))),
        ] {
            assert!(shapes.contains(&expected), "{expected:?}: {shapes:?}");
        }
    }

    #[test]
    fn a_made_up_get_by_id_is_a_detail_query_and_other_rows_have_no_shape() {
        const PARAMS: &[Param] = &[WEBHOOK_ID, OPTIONS];
        assert_eq!(
            shape(row(PARAMS, &ONE_WEBHOOK)),
            Some(Shape::Detail(WEBHOOK_ID))
        );
        const PUT: Route = Route {
            method: "PUT",
            ..ONE_WEBHOOK
        };
        assert_eq!(shape(row(PARAMS, &PUT)), None);
        const NO_OPTIONS: &[Param] = &[WEBHOOK_ID];
        assert_eq!(shape(row(NO_OPTIONS, &ONE_WEBHOOK)), None);
        let paged = Row {
            pages: true,
            ..row(PARAMS, &ONE_WEBHOOK)
        };
        assert_eq!(shape(paged), None);
    }

    #[test]
    fn an_id_is_said_in_words() {
        assert_eq!(words("documentId"), "document id");
        assert_eq!(words("id"), "id");
    }
}
