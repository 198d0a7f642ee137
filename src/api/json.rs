//! A tiny JSON *writer* for request bodies. Parsing is left to the browser's own `JSON.parse`
//! (and serde_json in native tests), so the module carries no second JSON parser.

use crate::text::decimal;

/// Appends `s` to `out` as a JSON string literal (with quotes).
pub fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str("\\u");
                let hex = b"0123456789abcdef";
                for shift in [12, 8, 4, 0] {
                    let nibble = ((c as usize) >> shift) & 0xf;
                    out.push(hex.get(nibble).map_or('0', |&b| char::from(b)));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Builds a JSON object key by key, in insertion order.
#[derive(Debug)]
pub struct ObjectWriter {
    out: String,
    empty: bool,
}

impl Default for ObjectWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl ObjectWriter {
    /// Starts an empty object.
    pub fn new() -> Self {
        ObjectWriter {
            out: String::from("{"),
            empty: true,
        }
    }

    fn key(&mut self, key: &str) {
        if !self.empty {
            self.out.push(',');
        }
        self.empty = false;
        write_str(&mut self.out, key);
        self.out.push(':');
    }

    /// Adds a string member.
    pub fn string(&mut self, key: &str, value: &str) -> &mut Self {
        self.key(key);
        write_str(&mut self.out, value);
        self
    }

    /// Adds a string member when `value` is `Some`.
    pub fn opt_string(&mut self, key: &str, value: Option<&str>) -> &mut Self {
        if let Some(v) = value {
            self.string(key, v);
        }
        self
    }

    /// Adds an unsigned integer member.
    pub fn number(&mut self, key: &str, value: u32) -> &mut Self {
        self.key(key);
        self.out.push_str(&decimal(value.into()));
        self
    }

    /// Adds a member whose value is already valid JSON.
    pub fn raw(&mut self, key: &str, json: &str) -> &mut Self {
        self.key(key);
        self.out.push_str(json);
        self
    }

    /// Whether no member was added yet.
    pub fn is_empty(&self) -> bool {
        self.empty
    }

    /// Closes the object and returns its text.
    pub fn finish(mut self) -> String {
        self.out.push('}');
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_everything_json_requires() {
        let mut s = String::new();
        write_str(&mut s, "a\"b\\c\nd\u{1}e\u{2028}é😀");
        assert_eq!(s, r#""a\"b\\c\nd\u0001e\u2028é😀""#);
        let parsed: String = serde_json::from_str(&s).unwrap_or_default();
        assert_eq!(parsed, "a\"b\\c\nd\u{1}e\u{2028}é😀");
    }

    #[test]
    fn builds_objects_in_order() {
        let mut w = ObjectWriter::new();
        assert!(w.is_empty());
        w.string("type", "UNIT_CREATED")
            .opt_string("none", None)
            .number("take", 10)
            .raw("nested", "{}");
        assert_eq!(
            w.finish(),
            r#"{"type":"UNIT_CREATED","take":10,"nested":{}}"#
        );
        assert_eq!(ObjectWriter::new().finish(), "{}");
    }
}
