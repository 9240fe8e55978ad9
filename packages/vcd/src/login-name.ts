import { textError } from "@hyperlens/hyper-http";
import { serverText } from "@hyperlens/shared";

/** A Director login name split into its parts. */
export interface LoginName {
  user: string;
  org: string;
  /** The System org logs in at `/sessions/provider`; the tenant endpoint refuses it with 401. */
  isProvider: boolean;
}

/**
 * Splits `user@org` at the last `@` (user names may themselves be e-mail addresses). A name
 * without an org is a `config` error: Director cannot tell which org to log in to.
 */
export function parseLoginName(username: string): LoginName {
  const at = username.lastIndexOf("@");
  const user = at > 0 ? username.slice(0, at) : "";
  const org = at > 0 ? username.slice(at + 1) : "";
  if (user === "" || org === "") {
    throw textError(serverText("vcdLoginNameNoOrg", {}), {
      errorClass: "config",
      source: "Cloud Director",
      attempts: 0,
    });
  }
  return { user, org, isProvider: org.toLowerCase() === "system" };
}
