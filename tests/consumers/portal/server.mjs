// The portal's backend: Node's http, the built page (dist/), a minimal session (an HttpOnly
// cookie `sid` naming a token set kept in this process's memory), and estatekit/auth's token
// route on it. Sign-in is the staff member's own password grant (a real portal uses the
// authorization-code flow of authjsProvider or betterAuthProvider; the route is the same).
// Started by tests/consumers/portal.test.mjs: `node server.mjs SERVICE_URL`; prints its URL.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { createTokenRoute, createUserTokens, passwordGrant } from "estatekit/auth";
import { toNodeListener } from "estatekit/webhooks";

const serviceUrl = process.argv[2];
const oauth = { baseUrl: serviceUrl, clientId: "dev-client", clientSecret: "dev-secret" };
const dist = new URL("./dist/", import.meta.url).pathname;

/** sid -> the signed-in staff member's token set (never sent to the browser). */
const sessions = new Map();
const sid = (cookie) => /(?:^|;\s*)sid=([^;]+)/.exec(cookie ?? "")?.[1];
const COOKIE = "Path=/; HttpOnly; SameSite=Strict";

const tokenRoute = toNodeListener(
  createTokenRoute({
    userTokens: createUserTokens(oauth),
    session: {
      get: (request) => sessions.get(sid(request.headers.get("cookie"))) ?? null,
      set: (request, tokens) => void sessions.set(sid(request.headers.get("cookie")), tokens),
    },
  }),
);

/** What the route answered, for the test (status, the headers of interest; never a token). */
const answers = [];

async function body(req) {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : {};
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css" };

const server = createServer(async (req, res) => {
  const { pathname } = new URL(req.url, "http://portal");
  try {
    if (pathname === "/api/estate-token") {
      res.on("finish", () => answers.push({ status: res.statusCode, site: req.headers["sec-fetch-site"] ?? null, cacheControl: res.getHeader("cache-control"), vary: res.getHeader("vary"), cors: res.getHeader("access-control-allow-origin") ?? null }));
      return tokenRoute(req, res);
    }
    if (pathname === "/_test/answers") return void res.end(JSON.stringify(answers));
    if (req.method === "POST" && pathname === "/signin") {
      const { username, password } = await body(req);
      try {
        const tokens = await passwordGrant(oauth, { username, password });
        const id = randomBytes(18).toString("base64url");
        sessions.set(id, tokens);
        res.setHeader("set-cookie", `sid=${id}; ${COOKIE}`);
        return void res.end('{"signedIn":true}');
      } catch (e) {
        res.statusCode = 401;
        return void res.end(JSON.stringify({ signedIn: false, kind: e.kind }));
      }
    }
    if (req.method === "POST" && pathname === "/signout") {
      sessions.delete(sid(req.headers.cookie));
      res.setHeader("set-cookie", `sid=; ${COOKIE}; Max-Age=0`);
      return void res.end('{"signedIn":false}');
    }
    const file = normalize(join(dist, pathname === "/" ? "index.html" : pathname));
    if (!file.startsWith(dist)) throw Object.assign(new Error("outside dist"), { code: "ENOENT" });
    const bytes = await readFile(file);
    res.setHeader("content-type", TYPES[extname(file)] ?? "application/octet-stream");
    // The page's policy: the module compiled with 'wasm-unsafe-eval', calls to the service and
    // the backend only.
    res.setHeader("content-security-policy", `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self' ${serviceUrl}`);
    res.end(bytes);
  } catch (e) {
    res.statusCode = e.code === "ENOENT" ? 404 : 500;
    res.end();
  }
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
