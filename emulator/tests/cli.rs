use estatekit_emulator::config::{parse_static, Config};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

fn args(a: &[&str]) -> Result<Option<Config>, String> {
    Config::from_args(a.iter().map(|s| s.to_string()))
}

#[test]
fn parses_every_flag() {
    let c = args(&[
        "--host",
        "0.0.0.0",
        "--port",
        "0",
        "--token",
        "a",
        "--token=b",
        "--seed",
        "9",
        "--seed-messages",
        "100",
        "--seed-documents",
        "7",
        "--rate-limit",
        "0",
        "--max-upload-mb",
        "2",
        "--static",
        "www",
        "--static",
        "/pkg=out/pkg",
        "--second-origin",
        "--delivery-backoff-ms",
        "10",
        "--quiet",
    ])
    .expect("ok")
    .expect("config");
    assert_eq!(c.host, "0.0.0.0");
    assert_eq!(c.port, 0);
    assert_eq!(c.tokens, ["a", "b"]);
    assert_eq!((c.seed, c.seed_messages, c.seed_documents), (9, 100, 7));
    assert_eq!(c.event_seed, Some(9), "--seed also seeds the events' uuids");
    assert_eq!(c.rate_limit, 0);
    assert_eq!(c.max_body_bytes(), 2 * 1024 * 1024);
    assert_eq!(c.statics[0].prefix, "/");
    assert_eq!(c.statics[1].prefix, "/pkg/");
    assert_eq!(c.statics[1].dir, std::path::PathBuf::from("out/pkg"));
    assert!(c.second_origin && c.quiet);
    assert_eq!(c.delivery_backoff_ms, 10);

    let d = args(&[]).expect("ok").expect("config");
    assert_eq!(d.tokens, ["dev-token"]);
    assert_eq!(
        (d.port, d.rate_limit, d.max_upload_mb, d.delivery_backoff_ms),
        (8787, 300, 100, 500)
    );
    assert_eq!(d.host, "127.0.0.1");
    assert!(args(&["--help"]).expect("ok").is_none());
    for bad in [
        &["--port"][..],
        &["--port", "x"],
        &["--port", "70000"],
        &["--nope"],
        &["--token", "a,b"],
        &["--static", "/x="],
        &["--rate-limit", "-1"],
    ] {
        assert!(args(bad).is_err(), "{bad:?}");
    }
    assert_eq!(parse_static("/a/b/=d").expect("s").prefix, "/a/b/");
}

#[test]
fn parses_the_oauth_and_window_flags() {
    let d = args(&[]).expect("ok").expect("config");
    // Seeded for a newcomer (3 documents), event uuids random (no seed asked for).
    assert_eq!((d.seed_documents, d.event_seed), (3, None));
    assert_eq!(
        args(&["--seed-documents", "0"])
            .expect("ok")
            .expect("config")
            .seed_documents,
        0
    );
    // The line after the start-up line names the defaults in use and where to read more.
    let hint = d.start_hint();
    assert!(
        !hint.contains("dev-secret") && !hint.contains("dev-password"),
        "no secret in the log: {hint}"
    );
    for part in [
        "OAuth client dev-client",
        "user admin@acme.test",
        "--help",
        "3 documents on propertyId prop-bulk",
        "cand-1",
        "/_emulator/",
        "EMULATOR.md",
    ] {
        assert!(hint.contains(part), "{part}: {hint}");
    }
    let own = args(&[
        "--oauth-client",
        "app:own-secret",
        "--user",
        "a@b.test:own-pw",
    ])
    .expect("ok")
    .expect("config")
    .start_hint();
    assert!(
        !own.contains("own-secret") && !own.contains("own-pw") && !own.contains("dev-secret"),
        "{own}"
    );
    assert_eq!(d.oauth_clients.len(), 1);
    assert_eq!(
        (
            d.oauth_clients[0].id.as_str(),
            d.oauth_clients[0].secret.as_str()
        ),
        ("dev-client", "dev-secret")
    );
    assert_eq!(d.users.len(), 1);
    assert_eq!(
        (d.users[0].username.as_str(), d.users[0].password.as_str()),
        ("admin@acme.test", "dev-password")
    );
    assert_eq!(d.account_of(&d.users[0]), "dev-token");
    assert_eq!(
        (
            d.access_token_ttl_ms,
            d.rate_limit_window_ms,
            d.rotate_refresh_tokens,
            d.sign_in_page,
            d.code_ttl_ms
        ),
        (3_600_000, 60_000, false, false, 60_000)
    );

    let c = args(&[
        "--token",
        "main",
        "--oauth-client",
        "app:s3cret",
        "--oauth-client=app2:x:y",
        "--user",
        "a@x.test:pw",
        "--user",
        "b@x.test:pw2:other",
        "--access-token-ttl",
        "2",
        "--rotate-refresh-tokens",
        "--rate-limit-window-ms",
        "1500",
        "--sign-in-page",
        "--code-ttl-ms",
        "250",
    ])
    .expect("ok")
    .expect("config");
    let clients: Vec<(&str, &str)> = c
        .oauth_clients
        .iter()
        .map(|o| (o.id.as_str(), o.secret.as_str()))
        .collect();
    assert_eq!(clients, [("app", "s3cret"), ("app2", "x:y")]);
    assert_eq!(c.users.len(), 2);
    assert_eq!(c.account_of(&c.users[0]), "main");
    assert_eq!(c.account_of(&c.users[1]), "other");
    assert_eq!(c.tokens, ["main", "other"], "a user's account is listed");
    assert_eq!(c.access_token_ttl_ms, 2000);
    assert!(c.rotate_refresh_tokens);
    assert_eq!(c.rate_limit_window_ms, 1500);
    assert!(c.sign_in_page);
    assert_eq!(c.code_ttl_ms, 250);
    // Debug output never shows a secret.
    let shown = format!("{:?}", c);
    assert!(
        !shown.contains("s3cret") && !shown.contains("pw2"),
        "{shown}"
    );

    for bad in [
        &["--oauth-client", "no-secret"][..],
        &["--oauth-client", ":s"],
        &["--oauth-client", "a:"],
        &["--oauth-client", "a:b", "--oauth-client", "a:c"],
        &["--user", "only-name"],
        &["--user", "a@x.test:"],
        &["--user", "a@x.test:pw:bad,token"],
        &["--access-token-ttl", "0"],
        &["--access-token-ttl", "1.5"],
        &["--rate-limit-window-ms", "0"],
        &["--code-ttl-ms", "0"],
        &["--code-ttl-ms", "1s"],
    ] {
        let e = args(bad).expect_err("refused");
        assert!(!e.contains("pw"), "{e}");
    }
}

#[test]
fn parses_the_redirect_uri_flag() {
    // Before or after its client; repeatable; `=` and `:` inside the URI; given twice: once.
    let c = args(&[
        "--oauth-redirect-uri",
        "app=https://app.example/cb?x=1",
        "--oauth-client",
        "app:se:cret",
        "--oauth-redirect-uri=app=http://localhost:3000/api/auth/callback/estatekit",
        "--oauth-redirect-uri",
        "app=https://app.example/cb?x=1",
        "--oauth-client",
        "other:s",
    ])
    .expect("ok")
    .expect("config");
    assert_eq!(
        c.oauth_clients[0].redirect_uris,
        [
            "https://app.example/cb?x=1",
            "http://localhost:3000/api/auth/callback/estatekit"
        ]
    );
    assert_eq!(c.oauth_clients[0].secret, "se:cret");
    assert!(c.oauth_clients[1].redirect_uris.is_empty());
    // The default client takes one too.
    let d = args(&["--oauth-redirect-uri", "dev-client=https://a.test/cb"])
        .expect("ok")
        .expect("config");
    assert_eq!(d.oauth_clients[0].id, "dev-client");
    assert_eq!(d.oauth_clients[0].redirect_uris, ["https://a.test/cb"]);
    for bad in [
        &["--oauth-redirect-uri"][..],
        &["--oauth-redirect-uri", "no-uri"],
        &["--oauth-redirect-uri", "=https://a.test/cb"],
        &["--oauth-redirect-uri", "dev-client="],
        &["--oauth-redirect-uri", "dev-client=/relative"],
        &["--oauth-redirect-uri", "dev-client=https://a.test/cb#frag"],
        &["--oauth-redirect-uri", "dev-client=ftp://a.test/cb"],
        &["--oauth-redirect-uri", "nobody=https://a.test/cb"],
        &[
            "--oauth-client",
            "app:pw-secret",
            "--oauth-redirect-uri",
            "dev-client=https://a.test/cb",
        ],
    ] {
        let e = args(bad).expect_err("refused");
        assert!(e.contains("--oauth-redirect-uri"), "{e}");
        assert!(!e.contains("pw-secret"), "{e}");
    }
}

#[test]
fn binary_prints_startup_line_and_exits_on_sigterm() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_estatekit-emulator"))
        .args(["--port", "0", "--token", "t1", "--second-origin"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("line");
    let line = line.trim_end();
    let re_ok = line.starts_with("estatekit-emulator listening on http://127.0.0.1:")
        && line.contains(" tokens=t1,readonly-token second-origin=http://127.0.0.1:");
    assert!(re_ok, "{line}");
    // Then the default account's webhook subdomain, last.
    let subdomain = line
        .rsplit_once(" subdomain=")
        .map(|(_, s)| s)
        .unwrap_or_default();
    assert_eq!(
        subdomain,
        estatekit_emulator::state::subdomain_of("t1"),
        "{line}"
    );
    assert!(
        subdomain.len() == 12
            && subdomain.starts_with("emu-")
            && subdomain[4..].bytes().all(|b| b.is_ascii_hexdigit()),
        "{line}"
    );
    #[cfg(unix)]
    {
        let pid = child.id().to_string();
        let status = Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("kill");
        assert!(status.success());
        for _ in 0..100 {
            if let Some(st) = child.try_wait().expect("wait") {
                assert!(st.success(), "{st:?}");
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        panic!("emulator did not exit on SIGTERM");
    }
    #[cfg(not(unix))]
    {
        let _ = child.kill();
    }
}
