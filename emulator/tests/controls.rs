//! Controls for tests of several processes: a short rate-limit window, forced redeliveries
//! (`copies`) and bulk emits. Run on both hosts (`make test-parity`).
mod common;
use common::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

async fn list_hooks(base: &str) -> reqwest::Response {
    client()
        .get(format!("{base}{HOOKS}"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("list webhooks")
}

/// Polls `GET path` until `done` holds for its JSON array, for up to `secs` seconds.
async fn wait_array(
    base: &str,
    path: &str,
    secs: u64,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        let v = get_json(&client(), &format!("{base}{path}")).await;
        let items = v.as_array().cloned().unwrap_or_default();
        if done(&items) || Instant::now() > until {
            return items;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_short_rate_limit_window() {
    let s = server_with(|c| {
        c.rate_limit = 2;
        c.rate_limit_window_ms = 1000;
    })
    .await;
    let r = list_hooks(&s.base_url).await;
    assert_eq!(r.headers()["x-ratelimit-limit"], "2");
    assert_eq!(r.headers()["x-ratelimit-remaining"], "1");
    assert_eq!(r.headers()["x-ratelimit-reset"], "1");
    list_hooks(&s.base_url).await;
    let r = list_hooks(&s.base_url).await;
    assert_eq!(r.headers()["retry-after"], "1");
    assert_eq!(r.headers()["x-ratelimit-reset"], "1");
    let e = assert_error(r, 429).await;
    assert!(
        e["message"]
            .as_str()
            .is_some_and(|m| m.contains("per 1000 ms")),
        "{e}"
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let r = list_hooks(&s.base_url).await;
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.headers()["x-ratelimit-remaining"], "1");
}

#[tokio::test]
async fn copies_redeliver_the_same_envelope() {
    let s = server().await;
    let b = &s.base_url;
    let c = client();
    register_hook(
        &c,
        b,
        TOKEN,
        "UNIT_CREATED",
        &format!("{b}/_emulator/sink/copies"),
    )
    .await;
    let r = post_json(
        &c,
        &format!("{b}/_emulator/emit"),
        json!({"type": "UNIT_CREATED", "copies": 2}),
    )
    .await;
    assert_eq!(r.status().as_u16(), 200);
    let emitted: Value = r.json().await.expect("json");
    let uuid = emitted["uuid"].as_str().expect("uuid").to_string();
    let sink = wait_array(b, "/_emulator/sink", 20, |s| s.len() >= 3).await;
    assert_eq!(sink.len(), 3, "the delivery and 2 copies");
    assert!(sink.iter().all(|e| e["body"] == sink[0]["body"]));
    assert!(sink.iter().all(|e| e["body"]["uuid"] == uuid.as_str()));
    let ds = wait_array(b, "/_emulator/deliveries", 20, |d| d.len() >= 3).await;
    let mut copies: Vec<u64> = ds.iter().filter_map(|d| d["copy"].as_u64()).collect();
    copies.sort_unstable();
    assert_eq!(copies, [0, 1, 2]);
    assert!(ds.iter().all(|d| d["attempt"] == 1 && d["status"] == 200));

    let r = post_json(
        &c,
        &format!("{b}/_emulator/emit"),
        json!({"type": "UNIT_CREATED", "copies": 21}),
    )
    .await;
    assert_error(r, 400).await;
}

#[tokio::test]
async fn each_copy_is_retried_on_its_own() {
    let s = server().await;
    let b = &s.base_url;
    let c = client();
    register_hook(
        &c,
        b,
        TOKEN,
        "UNIT_CREATED",
        &format!("{b}/_emulator/sink/retry"),
    )
    .await;
    // The first answer of the receiver is a 503: one of the two deliveries is tried again.
    post_json(
        &c,
        &format!("{b}/_emulator/faults"),
        json!({"path": "/_emulator/sink/retry", "status": 503}),
    )
    .await;
    post_json(
        &c,
        &format!("{b}/_emulator/emit"),
        json!({"type": "UNIT_CREATED", "copies": 1}),
    )
    .await;
    let ds = wait_array(b, "/_emulator/deliveries", 20, |d| d.len() >= 3).await;
    assert_eq!(ds.len(), 3, "{ds:?}");
    assert_eq!(ds.iter().filter(|d| d["status"] == 503).count(), 1);
    assert_eq!(ds.iter().filter(|d| d["status"] == 200).count(), 2);
    assert!(ds.iter().any(|d| d["attempt"] == 2 && d["status"] == 200));
}

#[tokio::test]
async fn two_hundred_emits_in_a_row() {
    let s = server().await;
    let b = &s.base_url;
    let c = client();
    register_hook(
        &c,
        b,
        TOKEN,
        "UNIT_CREATED",
        &format!("{b}/_emulator/sink/bulk"),
    )
    .await;
    let started = Instant::now();
    let mut uuids = std::collections::HashSet::new();
    for _ in 0..200 {
        let r = post_json(
            &c,
            &format!("{b}/_emulator/emit"),
            json!({"type": "UNIT_CREATED"}),
        )
        .await;
        assert_eq!(r.status().as_u16(), 200);
        let v: Value = r.json().await.expect("json");
        uuids.insert(v["uuid"].as_str().expect("uuid").to_string());
    }
    eprintln!("200 emits answered in {} ms", started.elapsed().as_millis());
    assert_eq!(uuids.len(), 200, "every event has its own uuid");
    let sink = wait_array(b, "/_emulator/sink", 60, |s| s.len() >= 200).await;
    assert_eq!(sink.len(), 200);
    eprintln!(
        "200 deliveries received in {} ms",
        started.elapsed().as_millis()
    );
}

/// The uuids of the first `n` events a fresh emulator emits.
async fn first_uuids(s: &Server, n: usize) -> Vec<String> {
    let mut out = Vec::new();
    for _ in 0..n {
        let r = post_json(
            &client(),
            &format!("{}/_emulator/emit", s.base_url),
            json!({"type": "UNIT_CREATED"}),
        )
        .await;
        assert_eq!(r.status().as_u16(), 200);
        let v: Value = r.json().await.expect("json");
        out.push(v["uuid"].as_str().expect("uuid").to_string());
    }
    out
}

#[tokio::test]
async fn event_uuids_differ_between_runs_unless_seeded() {
    // Two runs without a seed: no uuid of one is a uuid of the other (a persistent dedupe store
    // would drop the second run's events as duplicates).
    let one = first_uuids(&server().await, 3).await;
    let two = first_uuids(&server().await, 3).await;
    assert!(one.iter().all(|u| !two.contains(u)), "{one:?} / {two:?}");
    // With `--seed`, the same uuids again (reproducible tests).
    let seeded = |seed| {
        move |c: &mut estatekit_emulator::Config| (c.seed, c.event_seed) = (seed, Some(seed))
    };
    let a = first_uuids(&server_with(seeded(7)).await, 3).await;
    let b = first_uuids(&server_with(seeded(7)).await, 3).await;
    let other = first_uuids(&server_with(seeded(8)).await, 3).await;
    assert_eq!(a, b);
    assert_ne!(a, other);
}
