//! `--static` directory serving.

use crate::config::StaticMount;
use crate::util::mime_for;
use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use std::path::PathBuf;

fn resolve(mount: &StaticMount, rest: &str) -> Option<PathBuf> {
    let decoded = percent_encoding::percent_decode_str(rest)
        .decode_utf8()
        .ok()?;
    let mut p = mount.dir.clone();
    for seg in decoded.split('/') {
        if seg.is_empty() || seg == "." {
            continue;
        }
        if seg == ".." || seg.contains('\\') || seg.contains('\0') || seg.contains(':') {
            return None;
        }
        p.push(seg);
    }
    Some(p)
}

/// Serves a file for `path` from the mounts (longest prefix first); None if nothing matches.
pub async fn serve(mounts: &[StaticMount], path: &str) -> Option<Response> {
    let mut sorted: Vec<&StaticMount> = mounts.iter().collect();
    sorted.sort_by_key(|m| std::cmp::Reverse(m.prefix.len()));
    for m in sorted {
        let bare = m.prefix.trim_end_matches('/');
        let rest = if let Some(r) = path.strip_prefix(m.prefix.as_str()) {
            r
        } else if path == bare {
            ""
        } else {
            continue;
        };
        let Some(mut file) = resolve(m, rest) else {
            continue;
        };
        if tokio::fs::metadata(&file).await.is_ok_and(|md| md.is_dir()) {
            file.push("index.html");
        }
        let Ok(bytes) = tokio::fs::read(&file).await else {
            continue;
        };
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut r = Response::new(Body::from(bytes));
        *r.status_mut() = StatusCode::OK;
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(mime_for(&name)),
        );
        r.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        return Some(r);
    }
    None
}
