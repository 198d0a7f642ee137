// The browser side of the token handoff: the service's address is read at request time and
// handed to the client component, which gets its token from /api/token.
import { serviceUrl } from "@/lib/estatekit-server";
import Tokens from "./tokens";

export const dynamic = "force-dynamic";

export default async function TokenPage() {
  return <Tokens baseUrl={serviceUrl()} tokenRoute="/api/token" demoSession />;
}
