//! The emulator serves what the operation table (estatekit-vocab's `operations`) says: every
//! request the table lists reaches a handler (not the "no route" 404 nor a 405), and at each
//! listed template every other method is refused with 405 (nothing unlisted is served there).

mod common;
use common::*;
use estatekit_emulator::routes::{extensions, listed};
use estatekit_vocab::operations::{GrantType, Operation};

/// `template` with each `{name}` segment replaced by `x-1`.
fn path_of(template: &str) -> String {
    template
        .split('/')
        .map(|s| if s.starts_with('{') { "x-1" } else { s })
        .collect::<Vec<_>>()
        .join("/")
}

#[tokio::test]
async fn every_route_of_the_table_is_served_and_nothing_else_at_its_paths() {
    let s = server().await;
    let c = client();
    let table: Vec<_> = Operation::ALL
        .iter()
        .flat_map(|op| op.routes())
        .chain(GrantType::ALL.iter().flat_map(|g| g.routes()))
        .collect();
    for route in &table {
        assert!(listed().contains(route), "{route:?} is not served");
    }
    for route in listed() {
        let url = format!("{}{}", s.base_url, path_of(route.template));
        let method = reqwest::Method::from_bytes(route.method.as_bytes()).expect("method");
        let r = c
            .request(method, &url)
            .bearer_auth(TOKEN)
            .send()
            .await
            .expect("send");
        let status = r.status().as_u16();
        let body = r.text().await.expect("body");
        assert!(
            status != 405 && !body.contains("no route for"),
            "{} {} is listed but not served: {status} {body}",
            route.method,
            route.template
        );
        assert!(
            table.contains(&&route) || extensions().contains(&route),
            "{route:?}"
        );
    }
    for route in listed() {
        let served: Vec<&str> = listed()
            .iter()
            .filter(|r| r.template == route.template)
            .map(|r| r.method)
            .collect();
        for method in ["GET", "POST", "PUT", "PATCH", "DELETE"] {
            if served.contains(&method) {
                continue;
            }
            let url = format!("{}{}", s.base_url, path_of(route.template));
            let m = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
            let r = c
                .request(m, &url)
                .bearer_auth(TOKEN)
                .send()
                .await
                .expect("send");
            assert_eq!(
                r.status().as_u16(),
                405,
                "{method} {} is not in the table but is served",
                route.template
            );
        }
    }
}
