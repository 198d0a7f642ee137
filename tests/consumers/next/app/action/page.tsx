// Registers the webhook given by ?type=&url= through a server action, called by the client
// component once it is mounted (and again by the form's button).
import ActionRunner from "./runner";

export const dynamic = "force-dynamic";

export default async function ActionPage({ searchParams }: { searchParams: Promise<{ type?: string; url?: string }> }) {
  const { type, url } = await searchParams;
  return <ActionRunner type={type ?? "UNIT_CREATED"} url={url ?? "http://127.0.0.1:9/next-action"} />;
}
