import { readFileSync } from "node:fs";
import type { VcenterStandin } from "../vcenter/server.ts";
import { call, type RawResponse } from "./https-client.ts";

const FIXTURES = new URL("../../../../fixtures/vsphere/", import.meta.url);

/** A recorded JSON fixture under fixtures/vsphere, parsed. */
export function vsphereFixture(path: string): unknown {
  return JSON.parse(readFileSync(new URL(path, FIXTURES), "utf8"));
}

/** Logs in with the default user and returns the session token. */
export async function vcenterLogin(standin: VcenterStandin): Promise<string> {
  const response = await call(`${standin.url}/api/session`, {
    method: "POST",
    headers: { authorization: standin.basicAuth() },
    ca: standin.caPem,
  });
  if (response.status !== 201) throw new Error(`login failed: ${response.status}`);
  return JSON.parse(response.body) as string;
}

/** A request with the session header. */
export function vcenterCall(
  standin: VcenterStandin,
  path: string,
  token: string,
  method = "GET",
): Promise<RawResponse> {
  return call(`${standin.url}${path}`, {
    method,
    headers: { "vmware-api-session-id": token },
    ca: standin.caPem,
  });
}
