mod common;
use common::*;
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};

fn png_bytes() -> Vec<u8> {
    let img = image::RgbaImage::from_fn(8, 6, |x, y| {
        image::Rgba([x as u8 * 30, y as u8 * 40, 100, 200])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgba8(img)
        .write_to(&mut out, image::ImageFormat::Png)
        .expect("encode png");
    out.into_inner()
}

fn form(file: Vec<u8>, file_name: &str, rp: &str, meta: &str) -> Form {
    Form::new()
        .part("file", Part::bytes(file).file_name(file_name.to_string()))
        .text("resourcePath", rp.to_string())
        .text("metadata", meta.to_string())
}

async fn upload(base: &str, f: Form) -> reqwest::Response {
    client()
        .post(format!("{base}{DOCS}"))
        .bearer_auth(TOKEN)
        .multipart(f)
        .send()
        .await
        .expect("upload")
}

#[tokio::test]
async fn document_lifecycle() {
    let s = server().await;
    let c = client();
    let r = upload(
        &s.base_url,
        form(
            b"hello".to_vec(),
            "a.txt",
            "/tenants/t-1/",
            r#"{"type":"CONTRACT","tenantId":"t-1","unitId":"u-1"}"#,
        ),
    )
    .await;
    assert_eq!(r.status().as_u16(), 201);
    let doc: Value = r.json().await.expect("json");
    let id = doc["id"].as_str().expect("id").to_string();
    let company = doc["companyId"].as_str().expect("company").to_string();
    let rp = doc["resourcePath"].as_str().expect("rp");
    assert!(
        rp.ends_with(&format!("/{company}/tenants/t-1/{id}")),
        "{rp}"
    );
    assert!(rp.starts_with("emu-"));
    assert_eq!(doc["title"], "a.txt");
    assert_eq!(doc["type"], "CONTRACT");
    assert_eq!(doc["tenantId"], "t-1");
    assert_eq!(doc["unitId"], "u-1");
    assert_eq!(doc["propertyId"], Value::Null);
    assert_eq!(doc["propertyGroupId"], Value::Null);
    assert_eq!(doc["size"], 5);
    let created = doc["createdAt"].as_str().expect("created");
    assert!(created.ends_with('Z') && created.len() == 24, "{created}");

    // name overrides the title; default type DOCUMENT.
    let f = form(b"x".to_vec(), "b.pdf", "properties/p-1", "{}").text("name", "Lease 2024.pdf");
    let doc2: Value = upload(&s.base_url, f).await.json().await.expect("json");
    assert_eq!(doc2["title"], "Lease 2024.pdf");
    assert_eq!(doc2["type"], "DOCUMENT");
    assert_eq!(doc2["mimeType"], "application/pdf");

    let r = c
        .get(format!("{}{DOCS}/{id}/metadata", s.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("get");
    assert_eq!(r.status().as_u16(), 200);
    let got: Value = r.json().await.expect("json");
    assert_eq!(got, doc);
    // Content download (emulator extension).
    let r = c
        .get(format!("{}{DOCS}/{id}", s.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("get");
    assert_eq!(r.bytes().await.expect("bytes").as_ref(), b"hello");

    let list: Value = c
        .get(format!("{}{DOCS}/metadata", s.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("l")
        .json()
        .await
        .expect("j");
    assert_eq!(list.as_array().expect("array").len(), 2);

    let r = c
        .delete(format!("{}{DOCS}/{id}", s.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("del");
    assert_eq!(r.status().as_u16(), 204);
    assert!(r.bytes().await.expect("b").is_empty());
    let r = c
        .delete(format!("{}{DOCS}/{id}", s.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("del");
    assert_error(r, 404).await;
    let r = c
        .get(format!("{}{DOCS}/{id}/metadata", s.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("get");
    assert_error(r, 404).await;

    // Accounts are isolated.
    let other: Value = c
        .get(format!("{}{DOCS}/metadata", s.base_url))
        .bearer_auth("readonly-token")
        .send()
        .await
        .expect("l")
        .json()
        .await
        .expect("j");
    assert_eq!(other.as_array().expect("a").len(), 0);
}

#[tokio::test]
async fn image_conversion() {
    let s = server().await;
    let c = client();
    let png = png_bytes();
    let f =
        form(png.clone(), "pic.png", "units/u-9", r#"{"type":"MOVE_IN"}"#).text("format", "JPEG");
    let r = upload(&s.base_url, f).await;
    assert_eq!(r.status().as_u16(), 201);
    let doc: Value = r.json().await.expect("json");
    assert_eq!(doc["mimeType"], "image/jpeg");
    let bytes = c
        .get(format!(
            "{}{DOCS}/{}",
            s.base_url,
            doc["id"].as_str().expect("id")
        ))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("g")
        .bytes()
        .await
        .expect("b");
    assert_eq!(&bytes[..2], &[0xFF, 0xD8]);
    assert_eq!(doc["size"], bytes.len());
    let back = image::load_from_memory(&bytes).expect("decodes");
    assert_eq!((back.width(), back.height()), (8, 6));

    // JPEG -> PNG.
    let f = form(bytes.to_vec(), "pic.jpg", "units/u-9", "{}").text("format", "PNG");
    let doc: Value = upload(&s.base_url, f).await.json().await.expect("json");
    assert_eq!(doc["mimeType"], "image/png");
    let out = c
        .get(format!(
            "{}{DOCS}/{}",
            s.base_url,
            doc["id"].as_str().expect("id")
        ))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("g")
        .bytes()
        .await
        .expect("b");
    assert_eq!(&out[..4], b"\x89PNG");

    // A non-image with format is refused.
    let f = form(b"not an image".to_vec(), "a.txt", "units/u-9", "{}").text("format", "PNG");
    let v = assert_error(upload(&s.base_url, f).await, 400).await;
    assert!(v["message"].as_str().expect("m").contains("format"));
}

#[tokio::test]
async fn document_list_filters() {
    let s = server_with(|c| c.seed_documents = 70).await;
    let c = client();
    let list = |q: &'static str| {
        let c = c.clone();
        let base = s.base_url.clone();
        async move {
            let r = c
                .get(format!("{base}{DOCS}/metadata{q}"))
                .bearer_auth(TOKEN)
                .send()
                .await
                .expect("list");
            assert_eq!(r.status().as_u16(), 200, "{q}");
            let v: Value = r.json().await.expect("json");
            v.as_array().expect("array").clone()
        }
    };
    let all = list("").await;
    assert_eq!(all.len(), 70);
    assert_eq!(all[0]["title"], "bulk-1.pdf");
    assert_eq!(all[0]["type"], "DOCUMENT");
    assert_eq!(all[5]["type"], "PRE-MOVE_IN");
    assert!(all[0]["resourcePath"]
        .as_str()
        .expect("rp")
        .contains("/properties/prop-bulk/"));
    assert_eq!(list("?propertyId=prop-bulk").await.len(), 70);
    assert_eq!(list("?propertyId=other").await.len(), 0);
    assert_eq!(list("?types=CONTRACT").await.len(), 10);
    assert_eq!(list("?types=CONTRACT&types=SELLING").await.len(), 20);
    assert_eq!(list("?types=CONTRACT,SELLING,PRE-MOVE_IN").await.len(), 30);
    assert_eq!(list("?types[]=MOVE_IN").await.len(), 10);
    // title: case-insensitive substring (bulk-1, bulk-10..19).
    assert_eq!(list("?title=BULK-1").await.len(), 11);
    let page = list("?skip=10&take=5").await;
    assert_eq!(page.len(), 5);
    assert_eq!(page[0]["title"], "bulk-11.pdf");
    assert_eq!(list("?take=0").await.len(), 0);
    assert_eq!(list("?skip=1000").await.len(), 0);
    assert_eq!(list("?types=SELLING&skip=2&take=100").await.len(), 8);
    assert_eq!(list("?unitId=u&tenantId=t").await.len(), 0);
    assert_eq!(list("?unknownParam=1").await.len(), 70);

    // 10,000 seeded documents in one answer (its time is the bench's, never asserted here).
    let s2 = server_with(|c| c.seed_documents = 10_000).await;
    let r = c
        .get(format!("{}{DOCS}/metadata", s2.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("list");
    let v: Value = r.json().await.expect("json");
    assert_eq!(v.as_array().expect("a").len(), 10_000);
}

#[tokio::test]
async fn webhooks_crud_and_readonly() {
    let s = server().await;
    let c = client();
    let url = format!("{}{HOOKS}", s.base_url);
    let list: Value = c
        .get(&url)
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("l")
        .json()
        .await
        .expect("j");
    assert_eq!(list, json!([]));
    let r = c
        .post(&url)
        .bearer_auth(TOKEN)
        .json(&json!({"type": "PROPERTY_CREATED", "url": "https://example.com/hook"}))
        .send()
        .await
        .expect("p");
    assert_eq!(r.status().as_u16(), 200);
    let id = r.headers()["location"].to_str().expect("loc").to_string();
    assert_eq!(id.len(), 36);
    assert!(r.bytes().await.expect("b").is_empty());
    let list: Value = c
        .get(&url)
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("l")
        .json()
        .await
        .expect("j");
    let hooks = list.as_array().expect("a");
    assert_eq!(hooks.len(), 1);
    let h = &hooks[0];
    assert_eq!(h["id"], id.as_str());
    assert_eq!(h["type"], "PROPERTY_CREATED");
    assert_eq!(h["url"], "https://example.com/hook");
    assert_eq!(h["deletedAt"], Value::Null);
    for k in [
        "partnerId",
        "companyId",
        "connectedByUserId",
        "createdAt",
        "updatedAt",
    ] {
        assert!(h[k].as_str().is_some_and(|v| !v.is_empty()), "{k}");
    }
    let r = c
        .delete(format!("{url}/{id}"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("d");
    assert_eq!(r.status().as_u16(), 204);
    assert!(r.bytes().await.expect("b").is_empty());
    let r = c
        .delete(format!("{url}/{id}"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("d");
    assert_error(r, 404).await;
    let list: Value = c
        .get(&url)
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("l")
        .json()
        .await
        .expect("j");
    assert_eq!(list, json!([]));

    // readonly-token: 403 server_error on every webhook route.
    for req in [
        c.get(&url),
        c.post(&url)
            .json(&json!({"type": "UNIT_CREATED", "url": "http://127.0.0.1:1/"})),
        c.delete(format!("{url}/whatever")),
    ] {
        let r = req.bearer_auth("readonly-token").send().await.expect("ro");
        let v = assert_error(r, 403).await;
        assert_eq!(v["code"], "server_error");
    }
}

#[tokio::test]
async fn auth_required_everywhere() {
    let s = server().await;
    let c = client();
    let b = &s.base_url;
    let routes = [
        ("POST", format!("{b}{GQL}")),
        ("POST", format!("{b}{DOCS}")),
        ("GET", format!("{b}{DOCS}/metadata")),
        ("GET", format!("{b}{DOCS}/x/metadata")),
        ("DELETE", format!("{b}{DOCS}/x")),
        ("GET", format!("{b}{HOOKS}")),
        ("POST", format!("{b}{HOOKS}")),
        ("DELETE", format!("{b}{HOOKS}/x")),
    ];
    for (m, u) in &routes {
        for auth in [
            None,
            Some("Bearer nope"),
            Some("Basic abc"),
            Some("Bearer"),
            Some("dev-token"),
        ] {
            let mut req = c.request(m.parse().expect("method"), u);
            if let Some(a) = auth {
                req = req.header("authorization", a);
            }
            let r = req.send().await.expect("send");
            assert!(r.headers().contains_key("x-ratelimit-limit"));
            let v = assert_error(r, 401).await;
            assert_eq!(v["code"], "unauthorized", "{m} {u} {auth:?}");
        }
    }
    // Lower-case scheme is accepted.
    let r = c
        .get(format!("{b}{HOOKS}"))
        .header("authorization", "bearer dev-token")
        .send()
        .await
        .expect("s");
    assert_eq!(r.status().as_u16(), 200);
    // Unknown API route -> 404 JSON, wrong method -> 405 JSON.
    assert_error(
        c.get(format!("{b}/api/nope"))
            .bearer_auth(TOKEN)
            .send()
            .await
            .expect("s"),
        404,
    )
    .await;
    assert_error(
        c.put(format!("{b}{HOOKS}"))
            .bearer_auth(TOKEN)
            .send()
            .await
            .expect("s"),
        405,
    )
    .await;
    assert_error(
        c.get(format!("{b}{GQL}"))
            .bearer_auth(TOKEN)
            .send()
            .await
            .expect("s"),
        405,
    )
    .await;
    assert_error(
        c.get(format!("{b}/nothing-here")).send().await.expect("s"),
        404,
    )
    .await;
}
