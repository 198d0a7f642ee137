//! Deterministic seed data.

use crate::model::{Document, Message, MessageAttachment, SentBy, User, DOCUMENT_TYPES};
use crate::util::{seed_time, SplitMix64};
use bytes::Bytes;

/// The XSS probe text included in `cand-1`'s conversation.
pub const XSS_TEXT: &str = "<img src=x onerror=alert(1)>";

const TEXTS: [&str; 12] = [
    "Hello, is the apartment still available?",
    "Yes, it is. Would you like to schedule a viewing?",
    "Could you tell me more about the heating costs?",
    "The heating costs are included in the service charges.",
    "Are pets allowed in the building?",
    "Small pets are fine after a short agreement.",
    "When would the earliest move-in date be?",
    "Please find the requested documents attached.",
    "Thank you, we received your application.",
    "Is there a parking space included?",
    "Grüße aus Köln — ça va? 👋",
    "Can I bring a guarantor's income statement instead?",
];

const FIRST: [&str; 6] = ["Anna", "Ben", "Clara", "David", "Elif", "Farid"];
const LAST: [&str; 6] = ["Müller", "Schmidt", "Nowak", "Rossi", "Yılmaz", "O'Brien"];
const ATTACH: [(&str, &str); 4] = [
    ("payslip.pdf", "application/pdf"),
    ("id-card.jpg", "image/jpeg"),
    ("floor-plan.png", "image/png"),
    ("schufa.pdf", "application/pdf"),
];

fn admin_user(i: u64) -> User {
    User {
        id: Some(format!("user-admin-{i}")),
        first_name: Some(if i == 1 { "Paula" } else { "Jonas" }.into()),
        last_name: Some("Verwalter".into()),
        email: Some(format!("admin{i}@example.com")),
    }
}

fn candidate_user(rng: &mut SplitMix64, cand: &str) -> User {
    let first = rng.pick(&FIRST).copied().unwrap_or("Anna");
    let last = rng.pick(&LAST).copied().unwrap_or("Müller");
    User {
        id: Some(format!("user-{cand}")),
        first_name: Some(first.into()),
        last_name: Some(last.into()),
        email: Some(format!("{cand}@example.com")),
    }
}

struct Conv<'a> {
    candidate: &'a str,
    contact: &'a str,
    listing: &'a str,
}

fn attachment(rng: &mut SplitMix64, msg_id: &str, k: usize) -> MessageAttachment {
    let (name, kind) = rng.pick(&ATTACH).copied().unwrap_or(ATTACH[0]);
    MessageAttachment {
        id: Some(format!("att-{msg_id}-{k}")),
        name: Some(name.into()),
        resource_path: Some(format!("messages/{msg_id}/{name}")),
        kind: Some(kind.into()),
        size: Some(i32::try_from(1024 + rng.below(500_000)).unwrap_or(1024)),
    }
}

/// Generates the messages of one account (identical for every account with the same seed).
pub fn messages(seed: u64, bulk: usize) -> Vec<Message> {
    let mut rng = SplitMix64::new(seed ^ 0x5eed_0001);
    let mut out: Vec<Message> = Vec::with_capacity(40 + bulk);
    let mut num: u64 = 0;
    // (candidate index, number of messages)
    let sizes = [10usize, 7, 7, 6, 6];
    for (ci, &count) in sizes.iter().enumerate() {
        let cand = format!("cand-{}", ci + 1);
        let contact = format!("contact-{}", ci % 3 + 1);
        let listing = format!("listing-{}", ci % 2 + 1);
        let conv = Conv {
            candidate: &cand,
            contact: &contact,
            listing: &listing,
        };
        let cand_user = candidate_user(&mut rng, &cand);
        let first_in_conv = out.len();
        for j in 0..count {
            num += 1;
            let id = format!("msg-{num}");
            let sent_by = match j {
                0 | 3 => SentBy::Candidate,
                1 => SentBy::Admin,
                _ if rng.chance(50) => SentBy::Admin,
                _ => SentBy::Candidate,
            };
            let user = match sent_by {
                SentBy::Admin => admin_user(1 + rng.below(2)),
                SentBy::Candidate => cand_user.clone(),
            };
            let text = if ci == 0 && j == 3 {
                XSS_TEXT.to_string()
            } else {
                rng.pick(&TEXTS).copied().unwrap_or("Hello").to_string()
            };
            let is_read = match j {
                0 => true,
                1 => false,
                _ => rng.chance(60),
            };
            let reply_to = if j > 0 && (j == 1 || rng.chance(40)) {
                let back = usize::try_from(rng.below(j as u64)).unwrap_or(0);
                out.get(first_in_conv + back).and_then(|m| m.id.clone())
            } else {
                None
            };
            let n_att = if j == 2 || rng.chance(30) {
                1 + usize::try_from(rng.below(3)).unwrap_or(0)
            } else {
                0
            };
            let attachments = (0..n_att)
                .map(|k| Some(attachment(&mut rng, &id, k + 1)))
                .collect();
            out.push(Message {
                num,
                contact_id: conv.contact.into(),
                listing_id: conv.listing.into(),
                id: Some(id),
                candidate_id: Some(conv.candidate.into()),
                sent_by: Some(sent_by),
                user_id: user.id.clone(),
                text: Some(text),
                user: Some(user),
                reply_to_message_id: reply_to,
                is_read: Some(is_read),
                attachments: Some(attachments),
            });
        }
    }
    let bulk_user = User {
        id: Some("user-cand-bulk".into()),
        first_name: Some("Bulk".into()),
        last_name: Some("Candidate".into()),
        email: Some("cand-bulk@example.com".into()),
    };
    let admin = admin_user(1);
    for i in 0..bulk {
        num += 1;
        let id = format!("msg-{num}");
        let admin_sent = i % 2 == 1;
        let user = if admin_sent {
            admin.clone()
        } else {
            bulk_user.clone()
        };
        let attachments = (1..=2)
            .map(|k| {
                Some(MessageAttachment {
                    id: Some(format!("att-{id}-{k}")),
                    name: Some(format!("bulk-{i}-{k}.pdf")),
                    resource_path: Some(format!("messages/{id}/bulk-{i}-{k}.pdf")),
                    kind: Some("application/pdf".into()),
                    size: Some(2048 + k),
                })
            })
            .collect();
        out.push(Message {
            num,
            contact_id: "contact-bulk".into(),
            listing_id: "listing-bulk".into(),
            id: Some(id),
            candidate_id: Some("cand-bulk".into()),
            sent_by: Some(if admin_sent {
                SentBy::Admin
            } else {
                SentBy::Candidate
            }),
            user_id: user.id.clone(),
            text: Some(format!("Bulk message number {}", i + 1)),
            user: Some(user),
            reply_to_message_id: None,
            is_read: Some(i % 3 == 0),
            attachments: Some(attachments),
        });
    }
    out
}

/// Generates the `--seed-documents` documents of one account.
pub fn documents(
    rng: &mut SplitMix64,
    n: usize,
    subdomain: &str,
    company_id: &str,
) -> Vec<Document> {
    (0..n)
        .map(|i| {
            let id = rng.uuid();
            let content = Bytes::from(format!(
                "%PDF-1.4\n% estatekit-emulator bulk document {}\n%%EOF\n",
                i + 1
            ));
            let t = seed_time(i64::try_from(i).unwrap_or(0));
            Document {
                resource_path: format!("{subdomain}/{company_id}/properties/prop-bulk/{id}"),
                id,
                title: format!("bulk-{}.pdf", i + 1),
                company_id: company_id.into(),
                doc_type: DOCUMENT_TYPES
                    .get(i % DOCUMENT_TYPES.len())
                    .copied()
                    .unwrap_or("DOCUMENT")
                    .into(),
                tenant_id: None,
                unit_id: None,
                property_id: Some("prop-bulk".into()),
                property_group_id: None,
                candidate_id: None,
                size: content.len() as u64,
                mime_type: "application/pdf".into(),
                created_at: t.clone(),
                updated_at: t,
                bytes: content,
            }
        })
        .collect()
}
