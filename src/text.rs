//! Building texts (error messages, URLs, GraphQL queries) without `core::fmt`.
//!
//! `format!` and `to_string` on numbers pull the formatting machinery and a call-site
//! `Arguments` structure per use into the WebAssembly module; these few functions cost a
//! fraction of that, which the package size budget needs. Native code may still use `format!`
//! (tests, `Display`), but code that runs in the browser builds its texts with these.

/// The parts, one after another.
pub fn concat(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for part in parts {
        out.push_str(part);
    }
    out
}

/// The items, separated by `separator`.
pub fn join<S: AsRef<str>>(items: &[S], separator: &str) -> String {
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(separator);
        }
        out.push_str(item.as_ref());
    }
    out
}

/// The decimal digits of `n`.
pub fn decimal(n: u64) -> String {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    let mut rest = n;
    loop {
        start -= 1;
        if let Some(d) = digits.get_mut(start) {
            *d = b'0' + (rest % 10) as u8;
        }
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    digits
        .get(start..)
        .map(|d| d.iter().map(|&b| char::from(b)).collect())
        .unwrap_or_default()
}

/// The decimal digits of `n`, with a leading `-` when negative.
pub fn signed_decimal(n: i64) -> String {
    let digits = decimal(n.unsigned_abs());
    if n < 0 {
        concat(&["-", &digits])
    } else {
        digits
    }
}

/// `[i]`, the path step of an array element.
pub fn index(i: usize) -> String {
    concat(&["[", &decimal(i as u64), "]"])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_format_writes_them() {
        for n in [0u64, 7, 10, 99, 100, 65_535, 2_147_483_647, u64::MAX] {
            assert_eq!(decimal(n), n.to_string());
        }
        for n in [0i64, -1, 42, -2_147_483_648, i64::MIN, i64::MAX] {
            assert_eq!(signed_decimal(n), n.to_string());
        }
        assert_eq!(index(12), "[12]");
    }

    #[test]
    fn concat_and_join() {
        assert_eq!(concat(&["a", "", "bc"]), "abc");
        assert_eq!(join(&["a", "b", "c"], ", "), "a, b, c");
        assert_eq!(join::<&str>(&[], ", "), "");
        assert_eq!(join(&[String::from("x")], "; "), "x");
    }
}
