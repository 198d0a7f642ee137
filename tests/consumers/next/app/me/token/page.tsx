// The browser side of the signed-in user's token: the client component of /token, getting its
// token from /api/me/token (behind the next-auth session) instead of the service account's.
import { serviceUrl } from "@/lib/estatekit-server";
import Tokens from "../../token/tokens";

export const dynamic = "force-dynamic";

export default async function MyTokenPage() {
  return <Tokens baseUrl={serviceUrl()} tokenRoute="/api/me/token" demoSession={false} />;
}
