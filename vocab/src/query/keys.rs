//! `estatekitKeys(client)`'s keys, made from the query factories: each query factory declares its
//! key ([`Key`]: resource, name, parameters, value, doc), and the resources are those of every
//! factory (a mutation's resource has its `all` too, which the mutation invalidates). Written
//! into the GENERATED blocks as the `resourceKeys` function of js/query.js (which
//! `estatekitKeys` spreads after `all`) and the `EstatekitKeys` interface of js/query.d.ts.

use super::WIDTH;

/// One parameter of a key function: its name, its JSDoc type, its declared type, and whether it
/// may be left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct KeyParam {
    pub name: &'static str,
    pub jsdoc: String,
    pub ts: String,
    pub optional: bool,
}

impl KeyParam {
    /// A parameter with these types, required.
    pub fn new(name: &'static str, jsdoc: &str, ts: &str) -> KeyParam {
        KeyParam {
            name,
            jsdoc: jsdoc.to_owned(),
            ts: ts.to_owned(),
            optional: false,
        }
    }

    /// The same, that may be left out.
    pub fn optional(self) -> KeyParam {
        KeyParam {
            optional: true,
            ..self
        }
    }

    /// Its JSDoc `@param`.
    fn jsdoc(&self) -> String {
        match self.optional {
            true => format!("@param {{{}}} [{}]", self.jsdoc, self.name),
            false => format!("@param {{{}}} {}", self.jsdoc, self.name),
        }
    }

    /// Its declaration (`name?: Type`).
    fn ts(&self) -> String {
        match self.optional {
            true => format!("{}?: {}", self.name, self.ts),
            false => format!("{}: {}", self.name, self.ts),
        }
    }
}

/// A key of `estatekitKeys(client)`, `<resource>.<name>(<params>)`: the key of one query
/// factory, the array `[...all, "<resource>", "<name>", <value>]` (no value when it has none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Key {
    /// The resource it is under (`documents`).
    pub resource: &'static str,
    /// Its name under it (`detail`).
    pub name: &'static str,
    /// Its parameters.
    pub params: Vec<KeyParam>,
    /// The array's last element, a JavaScript expression of the parameters (`documentId`).
    pub value: Option<String>,
    /// What its factory passes it (`documentId`; `query, pageSize`).
    pub args: String,
    /// What it keys, in its resource's `all` doc (`lists`, `pages`, `single documents`).
    pub what: String,
    /// Its doc (`` The key of `getDocumentQueryOptions(client, documentId)`. ``).
    pub doc: String,
}

impl Key {
    /// The factory's call of it, after `estatekitKeys(client).` (`documents.detail(documentId)`).
    pub fn call(&self) -> String {
        format!("{}.{}({})", self.resource, self.name, self.args)
    }

    /// Its entry in `resourceKeys`: its JSDoc line (when it has parameters) and its arrow
    /// function, broken after `=>` when longer than [`WIDTH`].
    fn js(&self) -> String {
        let names: Vec<&str> = self.params.iter().map(|p| p.name).collect();
        let value = match &self.value {
            Some(value) => format!(", {value}"),
            None => String::new(),
        };
        let head = format!("      {}: ({}) =>", self.name, names.join(", "));
        let array = format!(
            "/** @type {{const}} */ ([...all, \"{}\", \"{}\"{value}]),",
            self.resource, self.name
        );
        let line = format!("{head} {array}");
        let function = match line.len() <= WIDTH {
            true => format!("{line}\n"),
            false => format!("{head}\n        {array}\n"),
        };
        let docs: Vec<String> = self.params.iter().map(KeyParam::jsdoc).collect();
        match docs.is_empty() {
            true => function,
            false => format!("      /** {} */\n{function}", docs.join(" ")),
        }
    }

    /// Its member of the resource's object in `EstatekitKeys`.
    fn ts(&self) -> String {
        let params: Vec<String> = self.params.iter().map(KeyParam::ts).collect();
        format!(
            "        /** {} */\n        {}({}): EstatekitKey;\n",
            self.doc,
            self.name,
            params.join(", ")
        )
    }
}

/// Each factory's resource and key (a query's), in the table's order: what the keys are written
/// from.
pub(super) type Declared<'a> = [(&'static str, Option<&'a Key>)];

/// One resource of `estatekitKeys(client)`: its name and the keys of its queries.
struct Resource<'a> {
    name: &'static str,
    keys: Vec<&'a Key>,
}

impl Resource<'_> {
    /// Its `all` doc: every query of it, and what they are when it has more than one key
    /// (`Every documents query (lists, pages and single documents).`).
    fn all_doc(&self) -> String {
        let whats: Vec<&str> = self.keys.iter().map(|k| k.what.as_str()).collect();
        let listed = match whats.split_last() {
            Some((last, rest)) if !rest.is_empty() => {
                format!(" ({} and {last})", rest.join(", "))
            }
            _ => String::new(),
        };
        format!("Every {} query{listed}.", self.name)
    }

    /// Its entry in `resourceKeys`.
    fn js(&self) -> String {
        let name = self.name;
        let keys: String = self.keys.iter().map(|k| k.js()).collect();
        format!(
            "    {name}: {{\n      all: /** @type {{const}} */ ([...all, \"{name}\"]),\n{keys}    }},\n"
        )
    }

    /// Its member of `EstatekitKeys`.
    fn ts(&self) -> String {
        let name = self.name;
        let keys: String = self.keys.iter().map(|k| k.ts()).collect();
        format!(
            "    /** {}. */\n    readonly {name}: {{\n        /** {} */\n        readonly all: EstatekitKey;\n{keys}    }};\n",
            capitalized(name),
            self.all_doc()
        )
    }
}

/// `text` with its first letter upper-case.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The resources, in the order of their first factory, each with its keys in that order.
fn grouped<'a>(resources: &Declared<'a>) -> Vec<Resource<'a>> {
    let mut out: Vec<Resource<'a>> = Vec::new();
    for &(name, key) in resources {
        let at = match out.iter().position(|r| r.name == name) {
            Some(at) => at,
            None => {
                out.push(Resource {
                    name,
                    keys: Vec::new(),
                });
                out.len() - 1
            }
        };
        if let (Some(resource), Some(key)) = (out.get_mut(at), key) {
            resource.keys.push(key);
        }
    }
    out
}

/// The first key named twice (`webhooks.detail`), if any: two factories may not share a key.
pub(super) fn clash(keys: &[&Key]) -> Option<String> {
    keys.iter().enumerate().find_map(|(i, a)| {
        keys.iter()
            .skip(i + 1)
            .find(|b| a.resource == b.resource && a.name == b.name)
            .map(|_| format!("{}.{}", a.resource, a.name))
    })
}

/// js/query.js's `resourceKeys(all)`: every resource's keys under a client's `all`.
pub(super) fn javascript(resources: &Declared) -> String {
    let body: String = grouped(resources).iter().map(Resource::js).collect();
    format!(
        r#"/**
 * The keys of each resource under `all` (a client's `["estatekit", baseUrl]`): the resource's
 * `all`, and the key of each of its queries. `estatekitKeys(client)` gives them after `all`.
 * @param {{readonly ["estatekit", string]}} all
 */
function resourceKeys(all) {{
  return {{
{body}  }};
}}
"#
    )
}

/// js/query.d.ts's `EstatekitKeys` interface.
pub(super) fn typescript(resources: &Declared) -> String {
    let body: String = grouped(resources).iter().map(Resource::ts).collect();
    format!(
        "/** The keys of one client's queries, from the widest to the narrowest. */
export interface EstatekitKeys {{
    /** Every query of this client (`[\"estatekit\", baseUrl]`). */
    readonly all: EstatekitKey;
{body}}}
"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detail(resource: &'static str, name: &'static str) -> Key {
        Key {
            resource,
            name: "detail",
            params: vec![KeyParam::new(name, "string", "string")],
            value: Some(name.to_owned()),
            args: name.to_owned(),
            what: format!("single {resource}"),
            doc: "The key.".to_owned(),
        }
    }

    #[test]
    fn a_key_is_written_on_one_line_when_it_fits() {
        let key = detail("webhooks", "webhookId");
        assert_eq!(
            key.js(),
            "      /** @param {string} webhookId */\n      detail: (webhookId) => /** @type {const} */ ([...all, \"webhooks\", \"detail\", webhookId]),\n"
        );
        assert_eq!(
            key.ts(),
            "        /** The key. */\n        detail(webhookId: string): EstatekitKey;\n"
        );
        assert_eq!(key.call(), "webhooks.detail(webhookId)");
    }

    #[test]
    fn two_keys_of_one_name_under_one_resource_clash() {
        let (a, b, c) = (
            detail("webhooks", "webhookId"),
            detail("documents", "documentId"),
            detail("webhooks", "id"),
        );
        assert_eq!(clash(&[&a, &b]), None);
        assert_eq!(clash(&[&a, &b, &c]), Some("webhooks.detail".to_owned()));
    }

    #[test]
    fn a_resource_lists_what_its_keys_key_when_it_has_more_than_one() {
        let (a, b) = (detail("webhooks", "webhookId"), detail("webhooks", "id"));
        let one = Resource {
            name: "webhooks",
            keys: vec![&a],
        };
        assert_eq!(one.all_doc(), "Every webhooks query.");
        let two = Resource {
            name: "webhooks",
            keys: vec![&a, &b],
        };
        assert_eq!(
            two.all_doc(),
            "Every webhooks query (single webhooks and single webhooks)."
        );
    }
}
