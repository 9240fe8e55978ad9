import type { AllowedWrite } from "@hyperlens/hyper-http";

/**
 * The only non-GET calls the vCenter client sends: `POST /api/session` (login) and
 * `DELETE /api/session` (logout of the session named by the `vmware-api-session-id` header).
 */
export const VCENTER_ALLOWED_WRITES: readonly AllowedWrite[] = [
  { method: "POST", pathPattern: /^\/api\/session$/ },
  { method: "DELETE", pathPattern: /^\/api\/session$/ },
];
