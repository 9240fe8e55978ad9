import type { AllowedWrite } from "@hyperlens/hyper-http";

/**
 * The only non-GET calls the Director client sends: the CloudAPI logins (tenant and provider) and
 * the logout of the session they opened. `provider`/`current` are not session ids, so a DELETE of
 * `/sessions/provider` stays refused.
 */
export const VCD_ALLOWED_WRITES: readonly AllowedWrite[] = [
  { method: "POST", pathPattern: /^\/cloudapi\/1\.0\.0\/sessions(?:\/provider)?$/ },
  {
    method: "DELETE",
    pathPattern: /^\/cloudapi\/1\.0\.0\/sessions\/(?:current|urn:vcloud:session:[0-9A-Za-z-]+)$/,
  },
];
