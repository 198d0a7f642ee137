// The validated peer of the benchmark: what a TypeScript team writes by hand instead of using
// estatekit — `fetch` + `response.json()` + zod 4 schemas of the same shapes (`z.looseObject`,
// so that unknown fields are kept as estatekit keeps them; optional fields `.nullish()`).
// bench/run.mjs bundles this file with zod (esbuild, minified, as an app would ship it) into
// target/bench/peer/peer.js, which the page imports only in `setup()` and `coldStart()`.
import * as z from "zod";

const nullishString = () => z.string().nullish();

/** A webhook record (interface 2.5): id, type and url required. */
export const Webhook = z.looseObject({
  id: z.string(),
  type: z.string(),
  url: z.string(),
  partnerId: nullishString(),
  companyId: nullishString(),
  connectedByUserId: nullishString(),
  createdAt: nullishString(),
  updatedAt: nullishString(),
  deletedAt: nullishString(),
});

/** A stored document's metadata: id required. */
export const DocumentRecord = z.looseObject({
  id: z.string(),
  resourcePath: nullishString(),
  title: nullishString(),
  companyId: nullishString(),
  type: nullishString(),
  tenantId: nullishString(),
  unitId: nullishString(),
  propertyId: nullishString(),
  propertyGroupId: nullishString(),
  size: z.number().nullish(),
});

/** A message attachment (all fields nullable). */
export const MessageAttachment = z.looseObject({
  id: nullishString(),
  name: nullishString(),
  resourcePath: nullishString(),
  type: nullishString(),
  size: z.number().nullish(),
});

/** A message (all fields nullable). */
export const Message = z.looseObject({
  id: nullishString(),
  candidateId: nullishString(),
  sentBy: nullishString(),
  userId: nullishString(),
  text: nullishString(),
  user: z.looseObject({}).nullish(),
  replyToMessageId: nullishString(),
  isRead: z.boolean().nullish(),
  attachments: z.array(MessageAttachment.nullable()).nullish(),
});

const Webhooks = z.array(Webhook);
const Documents = z.array(DocumentRecord);
const MessagesAnswer = z.looseObject({
  data: z.looseObject({ messages: z.array(Message.nullable()) }),
});

// The same query text estatekit builds for `messages({ candidateId })` with the default fields.
const MESSAGES_QUERY =
  "query Messages($candidateId: String) { messages(input: { filter: { candidateId: $candidateId } }) " +
  "{ id candidateId sentBy userId text replyToMessageId isRead attachments { id name resourcePath type size } } }";

/** A hand-written client of the same calls, as a team would write it with fetch and zod. */
export function peerClient({ baseUrl, token }) {
  const auth = { Authorization: `Bearer ${token}` };
  const json = async (response) => {
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.json();
  };
  return {
    async listWebhooks() {
      return Webhooks.parse(await json(await fetch(`${baseUrl}/api/external-integrations/webhooks`, { headers: auth })));
    },
    async listDocuments({ propertyId, take }) {
      const query = new URLSearchParams({ propertyId, take: String(take) });
      const url = `${baseUrl}/api/file-storage/company/documents/metadata?${query}`;
      return Documents.parse(await json(await fetch(url, { headers: auth })));
    },
    async getDocument(id) {
      const url = `${baseUrl}/api/file-storage/company/documents/${encodeURIComponent(id)}/metadata`;
      return DocumentRecord.parse(await json(await fetch(url, { headers: auth })));
    },
    async messages({ candidateId }) {
      const response = await fetch(`${baseUrl}/api/reporting/graphql`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ query: MESSAGES_QUERY, variables: { candidateId } }),
      });
      const answer = await json(response);
      if (answer?.errors) throw new Error(`GraphQL: ${JSON.stringify(answer.errors).slice(0, 200)}`);
      return MessagesAnswer.parse(answer).data.messages;
    },
    async uploadDocument({ file, resourcePath }) {
      const form = new FormData();
      form.append("resourcePath", resourcePath);
      form.append("metadata", "{}");
      form.append("file", file, "upload");
      const url = `${baseUrl}/api/file-storage/company/documents`;
      return DocumentRecord.parse(await json(await fetch(url, { method: "POST", headers: auth, body: form })));
    },
  };
}
