// The service's address is known only when the server starts (the emulator's port is picked
// then): this server component reads it at request time and hands it to the client component.
import { serviceUrl } from "@/lib/estatekit-server";
import Uploader from "./uploader";

export const dynamic = "force-dynamic";

export default async function UploadPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return <Uploader baseUrl={serviceUrl()} token={token ?? "dev-token"} />;
}
