// The portal's token provider (server only): one per server process, made at first use (the
// service's address is read at request time), kept on globalThis so that every route and page
// bundle of the process shares it, and with it one token set and one refresh at a time. The
// client secret and the password come from the environment in a real portal; these are the
// emulator's defaults.
import { createTokenProvider, type TokenProvider } from "estatekit/auth";
import { serviceUrl } from "./estatekit-server";

const shared = globalThis as typeof globalThis & { estatekitTokenProvider?: TokenProvider };

export function tokenProvider(): TokenProvider {
  shared.estatekitTokenProvider ??= createTokenProvider({
    baseUrl: serviceUrl(),
    clientId: process.env.ESTATEKIT_CLIENT_ID ?? "dev-client",
    clientSecret: process.env.ESTATEKIT_CLIENT_SECRET ?? "dev-secret",
    username: process.env.ESTATEKIT_USERNAME ?? "admin@acme.test",
    password: process.env.ESTATEKIT_PASSWORD ?? "dev-password",
  });
  return shared.estatekitTokenProvider;
}
