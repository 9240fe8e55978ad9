import { CAPABILITIES, type Capability } from "@hyperlens/shared";

/** Who is asking: a signed-in user or an API token, with its effective capabilities. */
export interface Viewer {
  kind: "USER" | "API_TOKEN";
  userId: string;
  username: string;
  isAdmin: boolean;
  capabilities: ReadonlySet<Capability>;
  sessionId?: string;
  tokenId?: string;
  /**
   * A session of a user the administrator requires two-factor of, who has not enrolled yet: it
   * holds no capability and may only enrol, read the viewer and sign out (docs/behaviour.md §12).
   */
  mustEnrolTwoFactor?: boolean;
}

/** A user's effective capabilities: administrators hold every capability. */
export function effectiveCapabilities(user: {
  isAdmin: boolean;
  capabilities: readonly Capability[];
}) {
  return new Set<Capability>(user.isAdmin ? CAPABILITIES : user.capabilities);
}
