// The app's webhook receiver, written against `estatekit/webhooks` only: a Next.js App Router
// route handler (`export const POST`), tested through estatekit/testing (../test/webhooks.test.ts).
import { createWebhookHandler } from "estatekit/webhooks";

/** What the app did with the deliveries (its "database"). */
export const applications: { candidate: string; unit: string }[] = [];

export const POST = createWebhookHandler({
  dedupe: true,
  on: {
    LISTING_CANDIDATE_APPLIED: (event) => {
      applications.push({ candidate: event.data.email, unit: event.data.listing.unit.name });
    },
  },
});
