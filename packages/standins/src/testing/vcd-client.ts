import { DEFAULT_VCD_USERS, type VcdStandin } from "../vcd/server.ts";
import type { VcdUserSpec } from "../vcd/sessions.ts";
import { call, header, type RawResponse } from "./https-client.ts";

function defaultUser(role: VcdUserSpec["role"]): VcdUserSpec {
  const user = DEFAULT_VCD_USERS.find((u) => u.role === role);
  if (!user) throw new Error(`no default ${role} user`);
  return user;
}

/** The default tenant user (`inventory@acme`). */
export const TENANT = defaultUser("tenant");
/** The default provider user (`administrator@System`). */
export const PROVIDER = defaultUser("provider");

/** The version tests negotiate unless they say otherwise. */
export const TEST_VERSION = "38.0";

/** Log in on the endpoint matching the user's role; returns the bearer token. */
export async function vcdLogin(
  standin: VcdStandin,
  user: VcdUserSpec = TENANT,
  version = TEST_VERSION,
): Promise<string> {
  const chosen = user;
  const suffix = chosen.role === "provider" ? "/provider" : "";
  const response = await call(`${standin.url}/cloudapi/1.0.0/sessions${suffix}`, {
    method: "POST",
    ca: standin.caPem,
    headers: {
      Authorization: standin.basicAuth(chosen),
      Accept: `application/json;version=${version}`,
    },
  });
  const token = header(response, "X-VMWARE-VCLOUD-ACCESS-TOKEN");
  if (response.status !== 200 || !token) throw new Error(`login failed: ${response.status}`);
  return token;
}

/** A GET with a bearer token and a versioned Accept header (XML for /api, JSON for /cloudapi). */
export function vcdGet(standin: VcdStandin, path: string, token: string): Promise<RawResponse> {
  const accept = path.startsWith("/cloudapi/")
    ? `application/json;version=${TEST_VERSION}`
    : `application/*+xml;version=${TEST_VERSION}`;
  return call(`${standin.url}${path}`, {
    ca: standin.caPem,
    headers: { Authorization: `Bearer ${token}`, Accept: accept },
  });
}
