// An open subscription (WebSocket or server-sent events) outlives the check made when it opened;
// this is the one check both transports repeat while it stays open.
import { authenticate, type Credentials } from "../auth/authenticate.ts";
import type { Viewer } from "../auth/viewer.ts";
import type { AppServices } from "../context.ts";

/** What checking an open subscription's credentials again found. */
export type RecheckVerdict =
  | { kind: "allowed"; viewer: Viewer }
  /** The token was revoked or expired, the session ended, or the user was disabled. */
  | { kind: "unauthenticated" }
  /** Still signed in, but no longer allowed to see inventory events. */
  | { kind: "forbidden" };

/** The credentials a request presents, as {@link authenticate} reads them. */
export function credentialsFromHeaders(headers: Headers): Credentials {
  return { authorization: headers.get("authorization"), cookie: headers.get("cookie") };
}

/** Authenticates `credentials` again; a database failure counts as no longer authenticated. */
export async function recheckCredentials(
  services: Pick<AppServices, "prisma" | "sessionPolicy">,
  credentials: Credentials,
): Promise<RecheckVerdict> {
  // TRAP: docs/behaviour.md §7 — an error here must end the stream, not keep it open unchecked.
  const viewer = await authenticate(services.prisma, credentials, services.sessionPolicy).catch(
    () => null,
  );
  if (!viewer) return { kind: "unauthenticated" };
  if (!viewer.capabilities.has("VIEW_INVENTORY")) return { kind: "forbidden" };
  return { kind: "allowed", viewer };
}
