import { CAPABILITIES, type Capability } from "@hyperlens/shared";

/**
 * Which connections a viewer sees (docs/security.md, the permission model): every one, or those
 * of the connection groups it is granted. Computed once when the request is authenticated.
 */
export type ConnectionScope =
  | { all: true }
  | {
      all: false;
      /** The groups granted (for a token: its groups that its creator is granted too). */
      groupIds: readonly string[];
      /** The connections in those groups. */
      connectionIds: readonly string[];
    };

/** Who is asking: a signed-in user or an API token, with its effective capabilities. */
export interface Viewer {
  kind: "USER" | "API_TOKEN";
  userId: string;
  username: string;
  isAdmin: boolean;
  capabilities: ReadonlySet<Capability>;
  /**
   * A session whose password an administrator reset: until it chooses a new one it may only ask
   * `viewer`, change its password or sign out (docs/behaviour.md §12). Never set for a token.
   */
  mustChangePassword?: boolean;
  /** The connections this viewer sees; capabilities say what it may do with them. */
  scope: ConnectionScope;
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
