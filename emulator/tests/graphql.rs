mod common;
use common::*;
use serde_json::{json, Value};

const Q: &str = "query($input: MessageFilterPaging) { messages(input: $input) { id candidateId sentBy userId text replyToMessageId isRead user { id firstName lastName email } attachments { id name resourcePath type size } } }";

fn ids(v: &Value) -> Vec<String> {
    v["data"]["messages"]
        .as_array()
        .expect("messages array")
        .iter()
        .map(|m| m["id"].as_str().expect("id").to_string())
        .collect()
}

#[tokio::test]
async fn seed_conversations_and_filters() {
    let s = server().await;
    let c = client();
    let v = gql(
        &c,
        &s.base_url,
        TOKEN,
        Q,
        json!({"input": {"filter": {"candidateId": "cand-1"}}}),
    )
    .await;
    let msgs = v["data"]["messages"].as_array().expect("array").clone();
    assert!(msgs.len() >= 8, "cand-1 has {} messages", msgs.len());
    assert!(msgs.iter().all(|m| m["candidateId"] == "cand-1"));
    assert!(msgs
        .iter()
        .any(|m| m["text"] == "<img src=x onerror=alert(1)>" && m["sentBy"] == "CANDIDATE"));
    assert!(msgs.iter().any(|m| m["sentBy"] == "ADMIN"));
    assert!(msgs.iter().any(|m| m["isRead"] == true) && msgs.iter().any(|m| m["isRead"] == false));
    assert!(msgs.iter().all(|m| m["user"]["id"].is_string()));
    // Replies point at an earlier message of the same conversation.
    let idx: Vec<String> = ids(&v);
    let mut replies = 0;
    for (i, m) in msgs.iter().enumerate() {
        if let Some(r) = m["replyToMessageId"].as_str() {
            let pos = idx
                .iter()
                .position(|x| x == r)
                .expect("reply target in conversation");
            assert!(pos < i);
            replies += 1;
        }
    }
    assert!(replies >= 1);
    // Default order: by id ascending (numeric).
    let nums: Vec<u64> = idx.iter().map(|i| i[4..].parse().expect("num")).collect();
    assert!(nums.windows(2).all(|w| w[0] < w[1]));

    // All seeded messages: >= 30, attachments 1-3 on some.
    let mut total = 0;
    let mut with_att = 0;
    for cand in 1..=5 {
        let v = gql(
            &c,
            &s.base_url,
            TOKEN,
            Q,
            json!({"input": {"filter": {"candidateId": format!("cand-{cand}")}}}),
        )
        .await;
        for m in v["data"]["messages"].as_array().expect("array") {
            total += 1;
            let n = m["attachments"].as_array().expect("attachments").len();
            assert!(n <= 3);
            if n > 0 {
                with_att += 1;
                assert!(m["attachments"][0]["size"].is_i64());
            }
        }
    }
    assert!(total >= 30, "total {total}");
    assert!(with_att >= 3);

    // contactId / listingId filters.
    let v = gql(
        &c,
        &s.base_url,
        TOKEN,
        Q,
        json!({"input": {"filter": {"contactId": "contact-2"}}}),
    )
    .await;
    assert!(!ids(&v).is_empty());
    let v2 = gql(
        &c,
        &s.base_url,
        TOKEN,
        Q,
        json!({"input": {"filter": {"listingId": "listing-1", "contactId": "contact-2"}}}),
    )
    .await;
    assert!(ids(&v2).len() <= ids(&v).len());
    let v = gql(
        &c,
        &s.base_url,
        TOKEN,
        Q,
        json!({"input": {"filter": {"candidateId": "nobody"}}}),
    )
    .await;
    assert_eq!(ids(&v).len(), 0);
    // externalContactId is accepted alongside a real filter.
    let v = gql(
        &c,
        &s.base_url,
        TOKEN,
        Q,
        json!({"input": {"filter": {"candidateId": "cand-2", "externalContactId": "x"}}}),
    )
    .await;
    assert!(v["errors"].is_null(), "{v}");
    assert!(!ids(&v).is_empty());
}

#[tokio::test]
async fn paging_and_sorting() {
    let s = server().await;
    let c = client();
    let all = ids(&gql(
        &c,
        &s.base_url,
        TOKEN,
        Q,
        json!({"input": {"filter": {"candidateId": "cand-1"}}}),
    )
    .await);
    let page = ids(&gql(
        &c,
        &s.base_url,
        TOKEN,
        Q,
        json!({"input": {"filter": {"candidateId": "cand-1"}, "paging": {"skip": 2, "take": 3}}}),
    )
    .await);
    assert_eq!(page, all[2..5].to_vec());
    let tail = ids(&gql(
        &c,
        &s.base_url,
        TOKEN,
        Q,
        json!({"input": {"filter": {"candidateId": "cand-1"}, "paging": {"skip": 100, "take": 3}}}),
    )
    .await);
    assert!(tail.is_empty());
    let desc = ids(&gql(&c, &s.base_url, TOKEN, Q, json!({"input": {"filter": {"candidateId": "cand-1"}, "sort": {"fieldName": "id", "direction": "desc"}}})).await);
    let mut rev = all.clone();
    rev.reverse();
    assert_eq!(desc, rev);
    let v = gql(&c, &s.base_url, TOKEN, Q, json!({"input": {"filter": {"candidateId": "cand-1"}, "sort": {"fieldName": "text", "direction": "ASC"}}})).await;
    let texts: Vec<String> = v["data"]["messages"]
        .as_array()
        .expect("a")
        .iter()
        .map(|m| m["text"].as_str().expect("t").to_string())
        .collect();
    let mut sorted = texts.clone();
    sorted.sort();
    assert_eq!(texts, sorted);
}

#[tokio::test]
async fn graphql_errors() {
    let s = server().await;
    let c = client();
    for input in [
        json!(null),
        json!({}),
        json!({"filter": {}}),
        json!({"filter": {"externalContactId": "x"}}),
        json!({"filter": {"candidateId": "cand-1"}, "sort": {"fieldName": "nope"}}),
        json!({"filter": {"candidateId": "cand-1"}, "sort": {"fieldName": "id", "direction": "UP"}}),
        json!({"filter": {"candidateId": "cand-1"}, "paging": {"skip": -1}}),
        json!({"filter": {"candidateId": "cand-1"}, "paging": {"take": -5}}),
        json!({"filter": {"candidateId": 5}}),
    ] {
        let v = gql(&c, &s.base_url, TOKEN, Q, json!({"input": input})).await;
        let errs = v["errors"]
            .as_array()
            .unwrap_or_else(|| panic!("errors for {input}: {v}"));
        assert!(!errs.is_empty());
        assert!(errs[0]["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    // Syntax error in the query text.
    let v = gql(&c, &s.base_url, TOKEN, "{ messages(", json!({})).await;
    assert!(v["errors"].is_array());
    // Unknown field.
    let v = gql(
        &c,
        &s.base_url,
        TOKEN,
        "{ messages(input:{filter:{candidateId:\"cand-1\"}}) { nope } }",
        json!({}),
    )
    .await;
    assert!(v["errors"].is_array());
}

#[tokio::test]
async fn introspection_has_documented_types() {
    let s = server().await;
    let c = client();
    let v = gql(&c, &s.base_url, TOKEN, "{ __schema { types { name kind fields { name } inputFields { name } enumValues { name } } } }", json!({})).await;
    let types = v["data"]["__schema"]["types"].as_array().expect("types");
    let find = |n: &str| {
        types
            .iter()
            .find(|t| t["name"] == n)
            .unwrap_or_else(|| panic!("type {n}"))
            .clone()
    };
    let names = |t: &Value, key: &str| -> Vec<String> {
        let mut v: Vec<String> = t[key]
            .as_array()
            .expect("list")
            .iter()
            .map(|f| f["name"].as_str().expect("n").to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        names(&find("Message"), "fields"),
        [
            "attachments",
            "candidateId",
            "id",
            "isRead",
            "replyToMessageId",
            "sentBy",
            "text",
            "user",
            "userId"
        ]
    );
    assert_eq!(
        names(&find("MessageAttachment"), "fields"),
        ["id", "name", "resourcePath", "size", "type"]
    );
    assert_eq!(
        names(&find("User"), "fields"),
        ["email", "firstName", "id", "lastName"]
    );
    assert_eq!(
        names(&find("MESSAGE_SENT_BY"), "enumValues"),
        ["ADMIN", "CANDIDATE"]
    );
    assert_eq!(
        names(&find("MessageFilterPaging"), "inputFields"),
        ["filter", "paging", "sort"]
    );
    assert_eq!(
        names(&find("MessageFilter"), "inputFields"),
        ["candidateId", "contactId", "externalContactId", "listingId"]
    );
    assert_eq!(names(&find("GraphPaging"), "inputFields"), ["skip", "take"]);
    assert_eq!(
        names(&find("GraphSorting"), "inputFields"),
        ["direction", "fieldName"]
    );
}

#[tokio::test]
async fn deterministic_seed_and_bulk_messages() {
    let a = server_with(|c| (c.seed, c.event_seed) = (7, Some(7))).await;
    let b = server_with(|c| (c.seed, c.event_seed) = (7, Some(7))).await;
    let d = server_with(|c| (c.seed, c.event_seed) = (8, Some(8))).await;
    let c = client();
    let vars = json!({"input": {"filter": {"candidateId": "cand-2"}}});
    let va = gql(&c, &a.base_url, TOKEN, Q, vars.clone()).await;
    let vb = gql(&c, &b.base_url, TOKEN, Q, vars.clone()).await;
    let vd = gql(&c, &d.base_url, TOKEN, Q, vars.clone()).await;
    assert_eq!(va, vb);
    assert_ne!(va, vd);
    // Each account is seeded identically.
    let vr = gql(&c, &a.base_url, "readonly-token", Q, vars).await;
    assert_eq!(va, vr);

    let s = server_with(|c| c.seed_messages = 20_000).await;
    let started = std::time::Instant::now();
    let v = gql(&c, &s.base_url, TOKEN, "{ messages(input:{filter:{candidateId:\"cand-bulk\"}}) { id text attachments { id name } } }", json!({})).await;
    let elapsed = started.elapsed();
    let msgs = v["data"]["messages"].as_array().expect("bulk");
    assert_eq!(msgs.len(), 20_000);
    assert!(msgs
        .iter()
        .all(|m| m["attachments"].as_array().map(Vec::len) == Some(2)));
    // Generous bound for unoptimised test builds.
    assert!(elapsed.as_secs() < 20, "took {elapsed:?}");
    let v = gql(&c, &s.base_url, TOKEN, "{ messages(input:{filter:{listingId:\"listing-bulk\", contactId:\"contact-bulk\"}, paging:{skip:19990}}) { id } }", json!({})).await;
    assert_eq!(v["data"]["messages"].as_array().expect("a").len(), 10);
}
