// next-auth's routes (sign-in, the OAuth callback, /api/auth/session...), with the options made
// at request time (lib/signin.ts): the service's address and the refresh mode are read then.
import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/signin";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nextauth: string[] }> };

function handler(request: NextRequest, context: Context): Promise<Response> {
  return NextAuth(request, context, authOptions());
}

export { handler as GET, handler as POST };
