// Who sent a request: an API token (Authorization: Bearer) or else a session cookie.

import type { PrismaClient } from "@hyperlens/db";
import { bearerToken, viewerFromApiToken } from "./api-tokens.ts";
import {
  type SessionPolicy,
  sessionSecretFromCookieHeader,
  viewerFromSession,
} from "./sessions.ts";
import type { Viewer } from "./viewer.ts";

/** Credentials as they arrive over HTTP or in a WebSocket's connection parameters. */
export interface Credentials {
  authorization?: string | null;
  cookie?: string | null;
}

/** Resolves credentials to a viewer, or null for an anonymous or invalid request. */
export async function authenticate(
  prisma: PrismaClient,
  credentials: Credentials,
  sessionPolicy: SessionPolicy,
): Promise<Viewer | null> {
  const token = bearerToken(credentials.authorization);
  // A request that presents a token is judged by that token alone, never by a cookie beside it.
  if (credentials.authorization) return token ? viewerFromApiToken(prisma, token) : null;
  const secret = sessionSecretFromCookieHeader(credentials.cookie);
  return secret ? viewerFromSession(prisma, secret, sessionPolicy) : null;
}
