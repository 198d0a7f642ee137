import Link from "next/link";

export default function Home() {
  return (
    <main>
      <h1>estatekit admin portal</h1>
      <ul>
        <li><Link href="/server">Webhooks, listed by a server component</Link></li>
        <li><Link href="/upload">Upload from the browser</Link></li>
        <li><Link href="/action">Register a webhook with a server action</Link></li>
        <li><a href="/me">Your own webhooks (signed in with next-auth)</a></li>
        <li><a href="/api/webhooks">/api/webhooks</a> and <a href="/api/testing">/api/testing</a></li>
      </ul>
    </main>
  );
}
