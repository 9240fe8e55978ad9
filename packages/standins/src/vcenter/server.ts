import {
  type HttpsStandin,
  type HttpsStandinOptions,
  type SessionCounts,
  startHttpsStandin,
  withSessionCounts,
} from "../standin.ts";
import { type VcenterCoreOptions, vcenterCore } from "./core.ts";
import type { VcenterSettings, VcenterWriteAttempt } from "./handler.ts";
import type { VcenterModel } from "./model.ts";
import type { VcenterRelease } from "./releases.ts";
import type { VcenterSession, VcenterUserSpec } from "./sessions.ts";

/** Options of {@link createVcenterStandin}; every field is optional. */
export interface VcenterStandinOptions extends VcenterCoreOptions, HttpsStandinOptions {}

/** A running vCenter stand-in. */
export interface VcenterStandin extends HttpsStandin, SessionCounts<VcenterSession> {
  /** The live inventory: change it between syncs. */
  model: VcenterModel;
  /** The release imitated. */
  release: VcenterRelease;
  /** Live switches (the VM list cap): change them between requests. */
  settings: VcenterSettings;
  /** Refused writes (anything but GET and the session POST/DELETE), in arrival order. */
  writeAttempts: VcenterWriteAttempt[];
  /** `Basic …` header value for a user (default: the first configured one). */
  basicAuth(user?: VcenterUserSpec): string;
}

/** Start a vCenter stand-in over real HTTPS on 127.0.0.1. */
export async function createVcenterStandin(
  options: VcenterStandinOptions = {},
): Promise<VcenterStandin> {
  const { model, release, users, sessions, settings, writeAttempts, handle } = vcenterCore(
    options,
    options.now ?? Date.now,
  );
  const server = await startHttpsStandin(options, handle);
  const standin = {
    ...server,
    model,
    release,
    settings,
    writeAttempts,
    basicAuth: (user = users[0]) =>
      user ? `Basic ${Buffer.from(`${user.user}:${user.password}`).toString("base64")}` : "",
  };
  return withSessionCounts(standin, sessions);
}
