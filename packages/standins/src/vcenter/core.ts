// The vCenter behind both transports: the HTTPS stand-in and the in-process one serve the same
// inventory, release, sessions and handler, so a property run sees what a socket client sees.
import type { StandinHandler } from "../http/reply.ts";
import { modelFrom } from "../standin.ts";
import { demoVcenter } from "./demo-vcenter.ts";
import { type VcenterSettings, type VcenterWriteAttempt, vcenterHandler } from "./handler.ts";
import { VcenterModel, type VcenterSpec } from "./model.ts";
import {
  assertModelFitsRelease,
  DEFAULT_VCENTER_RELEASE,
  type VcenterRelease,
  vcenterReleaseTraits,
} from "./releases.ts";
import { VcenterSessions, type VcenterUserSpec } from "./sessions.ts";

/** The password of the default user. */
export const DEFAULT_VCENTER_PASSWORD = "standin-password";

/** The accepted user by default: a read-only inventory account of vsphere.local. */
export const DEFAULT_VCENTER_USERS: VcenterUserSpec[] = [
  { user: "hyperlens@vsphere.local", password: DEFAULT_VCENTER_PASSWORD },
];

/** Options both vCenter stand-ins take; every field is optional. */
export interface VcenterCoreOptions {
  /** The inventory (a model, or a spec to build one); default {@link demoVcenter}. */
  model?: VcenterModel | VcenterSpec;
  /**
   * The release imitated (default {@link DEFAULT_VCENTER_RELEASE}); a model holding a VM only a
   * later release can hold (e.g. VMX_21 on 7.0.3) is refused with a RangeError.
   */
  release?: VcenterRelease;
  /** Accepted users; default {@link DEFAULT_VCENTER_USERS}. */
  users?: VcenterUserSpec[];
  /** Most VMs one list call answers before UNABLE_TO_ALLOCATE_RESOURCE; default 4,000. */
  vmListCap?: number;
  /** The status of that refusal: 500 (default, the 7.0.3 OpenAPI file) or 400 (the vAPI runtimes). */
  vmListCapStatus?: 400 | 500;
}

/** What a vCenter stand-in serves from, whatever carries its requests. */
export interface VcenterCore {
  model: VcenterModel;
  release: VcenterRelease;
  users: VcenterUserSpec[];
  sessions: VcenterSessions;
  settings: VcenterSettings;
  writeAttempts: VcenterWriteAttempt[];
  handle: StandinHandler;
}

/** Builds the {@link VcenterCore} of the options; sessions run on `now`. */
export function vcenterCore(options: VcenterCoreOptions, now: () => number): VcenterCore {
  const model = modelFrom(options.model, VcenterModel, demoVcenter);
  const release = options.release ?? DEFAULT_VCENTER_RELEASE;
  assertModelFitsRelease(model.vms, release);
  const users = options.users ?? DEFAULT_VCENTER_USERS;
  const sessions = new VcenterSessions(users, now);
  const settings: VcenterSettings = {
    vmListCap: options.vmListCap ?? 4000,
    ...(options.vmListCapStatus ? { vmListCapStatus: options.vmListCapStatus } : {}),
  };
  const writeAttempts: VcenterWriteAttempt[] = [];
  const handle = vcenterHandler({
    model,
    sessions,
    settings,
    writeAttempts,
    release: vcenterReleaseTraits(release),
  });
  return { model, release, users, sessions, settings, writeAttempts, handle };
}
