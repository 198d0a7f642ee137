// The portal's page: React 19 (StrictMode) and TanStack Query, the Client's token from the
// backend's token route (estatekit/token's createSessionToken), the staff member's webhooks
// listed with estatekit/query. Sign-in posts the staff member's credentials to the backend (which
// keeps the token set in its session); sign-out ends the session and calls `session.clear()`,
// whose listener (in this tab and the page's others) replaces the client and clears the query
// cache. What the page shows is mirrored in `document.body.dataset` for the test: `state`
// (loading, signed-in, sign-in-required, error), `result` (JSON) and `cleared` (how many times
// a clear() reached this tab).
import { StrictMode, createContext, useContext, useEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from "@tanstack/react-query";
import { Client } from "estatekit";
import { listWebhooksQueryOptions } from "estatekit/query";
import { createSessionToken, isSignInRequired } from "estatekit/token";

const params = new URLSearchParams(location.search);
const baseUrl = params.get("service");
// `?tabs=2`: the page also shows itself in a frame, the page's other tab for the test (same
// origin: the same cookies, and clear()'s BroadcastChannel reaches it).
const secondTab = params.get("tabs") === "2" && window.top === window;
const session = createSessionToken("/api/estate-token");
const makeClient = () => new Client({ baseUrl, getToken: session.getToken });

const EstateContext = createContext(null);

function EstateProvider({ children }) {
  const queryClient = useQueryClient();
  const [client, setClient] = useState(makeClient);
  const live = useRef(client);
  useEffect(
    () =>
      session.onClear(() => {
        document.body.dataset.cleared = String(Number(document.body.dataset.cleared ?? 0) + 1);
        queryClient.clear();
        const old = live.current;
        live.current = makeClient();
        setClient(live.current);
        old.free();
      }),
    [queryClient],
  );
  return <EstateContext.Provider value={client}>{children}</EstateContext.Provider>;
}

/** Posts to the backend's own routes (same origin, its session cookie). */
const post = (path, body) =>
  fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });

function Webhooks() {
  const client = useContext(EstateContext);
  const queryClient = useQueryClient();
  const webhooks = useQuery({ ...listWebhooksQueryOptions(client), retry: false });
  const [calls, setCalls] = useState(0);
  const state = webhooks.isPending ? "loading" : webhooks.isSuccess ? "signed-in" : isSignInRequired(webhooks.error) ? "sign-in-required" : "error";
  useEffect(() => {
    document.body.dataset.state = state;
    document.body.dataset.result = JSON.stringify({
      state,
      webhooks: webhooks.data?.map((w) => ({ id: w.id, type: w.type, url: w.url })) ?? null,
      error: webhooks.error ? { kind: webhooks.error.kind, status: webhooks.error.status, message: webhooks.error.message } : null,
      calls,
    });
  }, [state, webhooks.data, webhooks.error, calls]);

  async function signIn(event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const res = await post("/signin", { username: form.get("username"), password: form.get("password") });
    if (!res.ok) return void (document.body.dataset.signin = `HTTP ${res.status}`);
    document.body.dataset.signin = "ok";
    await queryClient.invalidateQueries();
  }
  async function signOut() {
    await post("/signout");
    session.clear();
  }
  async function again() {
    setCalls((n) => n + 1);
    await queryClient.invalidateQueries();
  }

  return (
    <main>
      {state === "sign-in-required" && (
        <form id="signin" onSubmit={signIn}>
          <p role="alert">Sign-in required</p>
          <input name="username" defaultValue="" />
          <input name="password" type="password" defaultValue="" />
          <button type="submit">Sign in</button>
        </form>
      )}
      {state === "signed-in" && (
        <>
          <ul>
            {webhooks.data.map((w) => (
              <li key={w.id}>
                {w.type} {w.url}
              </li>
            ))}
          </ul>
          <button id="signout" onClick={signOut}>
            Sign out
          </button>
        </>
      )}
      {state === "error" && <p role="alert">{webhooks.error.message}</p>}
      <button id="again" onClick={again}>
        Reload
      </button>
      {secondTab && <iframe id="tab2" title="the portal's other tab" src={`/?service=${encodeURIComponent(baseUrl)}`} />}
    </main>
  );
}

const queryClient = new QueryClient();
createRoot(document.getElementById("root")).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <EstateProvider>
        <Webhooks />
      </EstateProvider>
    </QueryClientProvider>
  </StrictMode>,
);
