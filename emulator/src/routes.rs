//! The service's routes, made from the operation table (estatekit-vocab's `operations`, where each
//! request's method and path template are written once): the router serves every request the
//! table lists, at the table's template, and nothing else under `/api/` or at the token endpoint
//! but the one extension named here. A handler is chosen by the operation whose own request
//! (its row's first route) it answers; pipeline.rs's `api_route` reads the same list.

use crate::state::AppState;
use crate::{documents, graphql, oauth, webhooks};
use axum::handler::Handler;
use axum::http::Method;
use axum::routing::{MethodFilter, MethodRouter};
use estatekit_vocab::operations::{GrantType, Operation, Route};

/// The emulator's one route beyond the service's interface: `GET` at a document's own address
/// (deleteDocument's template) answers the stored bytes (emulator/README.md).
pub fn extensions() -> Vec<Route> {
    Operation::DeleteDocument
        .routes()
        .first()
        .map(|delete| Route {
            method: "GET",
            template: delete.template,
            graphql: None,
        })
        .into_iter()
        .collect()
}

/// Every request of the operation table and of the token grants, once each, in the table's
/// order, then [`extensions`].
pub fn listed() -> Vec<Route> {
    let table = Operation::ALL
        .iter()
        .flat_map(|op| op.routes())
        .chain(GrantType::ALL.iter().flat_map(|g| g.routes()));
    let mut out: Vec<Route> = Vec::new();
    for route in table.copied().chain(extensions()) {
        if !out
            .iter()
            .any(|r| r.method == route.method && r.template == route.template)
        {
            out.push(route);
        }
    }
    out
}

/// The method of `route`, as the router's filter (`None` for one axum cannot route).
fn filter(route: &Route) -> Option<MethodFilter> {
    let method = Method::from_bytes(route.method.as_bytes()).ok()?;
    MethodFilter::try_from(method).ok()
}

fn on<H, T>(route: &Route, handler: H) -> Option<MethodRouter<AppState>>
where
    H: Handler<T, AppState>,
    T: 'static,
{
    Some(axum::routing::on(filter(route)?, handler))
}

/// The handler of `op`'s own request (`route`, its row's first), from its resource's module (each
/// names the operations it answers beside their handlers); `None` for an operation whose
/// requests are other rows' (ensureWebhook sends listWebhooks' and registerWebhook's).
fn own(op: Operation, route: &Route) -> Option<MethodRouter<AppState>> {
    let filter = filter(route)?;
    [
        graphql::answering,
        documents::answering,
        webhooks::answering,
    ]
    .iter()
    .find_map(|answering| answering(op, filter))
}

/// The handler answering `route`: the extension's, the token endpoint's (every grant's one
/// request), or that of the operation whose own request it is.
pub fn answer(route: &Route) -> Option<MethodRouter<AppState>> {
    if extensions().contains(route) {
        return on(route, documents::get_content);
    }
    if GrantType::ALL
        .iter()
        .any(|g| g.routes().first() == Some(route))
    {
        return on(route, oauth::token);
    }
    Operation::ALL
        .iter()
        .filter(|op| op.routes().first() == Some(route))
        .find_map(|&op| own(op, route))
}

/// The service's part of the router: each [`listed`] route at its template, with its handler.
pub fn service(mut router: axum::Router<AppState>) -> axum::Router<AppState> {
    for route in listed() {
        if let Some(handler) = answer(&route) {
            router = router.route(route.template, handler);
        }
    }
    router
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_request_of_the_table_has_a_handler() {
        for route in listed() {
            assert!(
                answer(&route).is_some(),
                "{} {} is in the operation table but no handler answers it",
                route.method,
                route.template
            );
        }
    }

    #[test]
    fn only_the_table_and_the_extension_are_listed() {
        for route in listed() {
            let in_table = Operation::ALL
                .iter()
                .flat_map(|op| op.routes())
                .chain(GrantType::ALL.iter().flat_map(|g| g.routes()))
                .any(|r| r == &route);
            assert!(in_table || extensions().contains(&route), "{route:?}");
        }
        assert_eq!(
            extensions(),
            [Route {
                method: "GET",
                template: "/api/file-storage/company/documents/{documentId}",
                graphql: None,
            }]
        );
    }
}
