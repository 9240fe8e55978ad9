import {
  connectorHttp,
  createSessionScope,
  type HyperClient,
  type HyperClientOptions,
  type HyperLogger,
  isHyperError,
  type ServerErrorAnswer,
} from "@hyperlens/hyper-http";
import { VCENTER_ALLOWED_WRITES } from "./allowed-writes.ts";
import { isVmListRefusal, readVmListing, VM_LIST_CAP, type VmListing } from "./list-vms.ts";
import { parseGuestIdentity, type VcenterGuestIdentity } from "./parse/guest-identity.ts";
import { parseGuestInterfaces, type VcenterGuestInterface } from "./parse/guest-interfaces.ts";
import {
  parseClusterList,
  parseDatacenterList,
  parseFolderList,
  parseHostList,
  type VcenterClusterSummary,
  type VcenterDatacenterSummary,
  type VcenterFolderSummary,
  type VcenterHostSummary,
} from "./parse/inventory-lists.ts";
import { parseSessionInfo, type VcenterSessionInfo } from "./parse/session.ts";
import { parseVmInfo, type VcenterVmInfo } from "./parse/vm-info.ts";
import { parseVmList, type VcenterVmSummary } from "./parse/vm-list.ts";
import { type Placement, readPlacement } from "./placement.ts";
import {
  createVcenterSession,
  type VcenterCredentials,
  type VcenterGetOptions,
} from "./session.ts";
import { filterQuery, type VmFilter } from "./vm-filter.ts";

/** hyper-http options for a vCenter connection; source and the login allowlist are filled in. */
export type VcenterHttpOptions = Omit<HyperClientOptions, "source" | "allowedWrites">;

/** Options of {@link createVcenterClient}. */
export interface VcenterClientOptions {
  /** A ready hyper-http client (it must allow {@link VCENTER_ALLOWED_WRITES}), or the options to build one. */
  http: HyperClient | VcenterHttpOptions;
  credentials: VcenterCredentials;
  /** Most VMs one list call answers (default {@link VM_LIST_CAP}); a list this long is split. */
  vmListCap?: number;
  /**
   * How this vCenter names itself for the Director↔vCenter link (docs/behaviour.md §10); default the host name
   * of the base URL.
   */
  serverName?: string;
  /** Where a failed logout is reported (default: the http options' logger, else nowhere). */
  logger?: HyperLogger;
}

/** Why a VMware Tools read gave nothing this time: the answer's status and its words. */
export type ToolsUnavailable = { kind: "unavailable"; reason: string; status: number };

/** What the guest networking call gave: the interfaces, or why there are none this time. */
export type GuestInterfacesOutcome =
  | { kind: "ok"; interfaces: VcenterGuestInterface[] }
  | ToolsUnavailable;

/** What the guest identity call gave: hostname and OS as Tools report them, or why not. */
export type GuestIdentityOutcome =
  | { kind: "ok"; identity: VcenterGuestIdentity }
  | ToolsUnavailable;

/** Filters of the host list. */
export interface HostFilter {
  datacenters?: readonly string[];
  clusters?: readonly string[];
}

/** Typed, read-only vCenter client. Reads reject with a HyperError and need an open session. */
export interface VcenterClient {
  /** The vCenter's own name for the Director link: the base URL's host unless told otherwise. */
  readonly serverName: string | null;
  /** Whether a session is open. */
  readonly hasSession: boolean;
  login(): Promise<void>;
  /** Deletes the session; rejects when the DELETE fails (use {@link VcenterClient.withSession}). */
  logout(): Promise<void>;
  /**
   * Logs in, runs `fn`, and always logs out — after success and after a failure part-way. A
   * logout failure is logged, never thrown over the real outcome. Nested calls share the outer
   * session; the outermost one logs out.
   */
  withSession<T>(fn: () => Promise<T>): Promise<T>;
  /** `GET /api/session`: who is logged in. */
  sessionInfo(): Promise<VcenterSessionInfo>;
  /**
   * One call of `GET /api/vcenter/vm` with a filter; the cap refusal (UNABLE_TO_ALLOCATE_RESOURCE,
   * 400 or 500) is not retried, any other 5xx is.
   */
  listVms(filter?: VmFilter): Promise<VcenterVmSummary[]>;
  /** The complete VM list and each VM's host, split by host and folder past the cap. */
  readVmListing(hosts: readonly string[]): Promise<VmListing>;
  /** `GET /api/vcenter/vm/{vm}`. */
  vmInfo(vm: string): Promise<VcenterVmInfo>;
  /**
   * `GET /api/vcenter/vm/{vm}/guest/networking/interfaces`. An answer with an error status (503
   * while VMware Tools is not running) is an outcome, not a failure; no answer at all rejects.
   */
  guestInterfaces(vm: string): Promise<GuestInterfacesOutcome>;
  /** `GET /api/vcenter/vm/{vm}/guest/identity`; like guestInterfaces, a 503 is an outcome. */
  guestIdentity(vm: string): Promise<GuestIdentityOutcome>;
  hosts(filter?: HostFilter): Promise<VcenterHostSummary[]>;
  clusters(filter?: { datacenters?: readonly string[] }): Promise<VcenterClusterSummary[]>;
  datacenters(): Promise<VcenterDatacenterSummary[]>;
  /** VM folders (`type=VIRTUAL_MACHINE`). */
  vmFolders(): Promise<VcenterFolderSummary[]>;
  /** Datacenters, clusters and the place of every host. */
  placement(): Promise<Placement>;
  /** Logs out if a session is still open (failure logged), then closes the http client if built here. */
  close(): Promise<void>;
}

function setQuery(name: string, values: readonly string[] | undefined): string {
  const params = new URLSearchParams();
  for (const value of values ?? []) params.append(name, value);
  return params.toString();
}

function joinQuery(...parts: string[]): string {
  const text = parts.filter((p) => p !== "").join("&");
  return text === "" ? "" : `?${text}`;
}

/** Creates a {@link VcenterClient} on hyper-http. */
export function createVcenterClient(options: VcenterClientOptions): VcenterClient {
  const { http, builtFrom, ownsHttp, logger } = connectorHttp(options.http, {
    source: "vCenter",
    allowedWrites: VCENTER_ALLOWED_WRITES,
    logger: options.logger,
  });
  const serverName = options.serverName ?? (builtFrom ? hostNameOf(builtFrom.baseUrl) : null);
  const session = createVcenterSession({ http, credentials: options.credentials });
  const cap = options.vmListCap ?? VM_LIST_CAP;
  // The scope logs in on the outermost withSession and always logs out (docs/behaviour.md §5).
  const scope = createSessionScope({ session, source: "vCenter", http, ownsHttp, logger });

  const getJson = async (
    path: string,
    retryServerErrors: VcenterGetOptions["retryServerErrors"] = true,
  ) => (await session.get(path, { retryServerErrors })).json();

  /** A read of what Tools report: an answer with an error status is an outcome, no answer rejects. */
  async function toolsRead<T>(
    path: string,
    parse: (value: unknown, call: string) => T,
  ): Promise<{ kind: "ok"; value: T } | ToolsUnavailable> {
    try {
      // 503 is the normal answer while VMware Tools is not running: not worth three tries.
      return { kind: "ok", value: parse(await getJson(path, false), `GET ${path}`) };
    } catch (error) {
      if (!isHyperError(error) || error.status === undefined || error.status === 401) throw error;
      return {
        kind: "unavailable",
        status: error.status,
        reason: error.serverMessage ?? `HTTP ${error.status}`,
      };
    }
  }

  async function listVms(filter: VmFilter = {}): Promise<VcenterVmSummary[]> {
    const path = `/api/vcenter/vm${filterQuery(filter)}`;
    // The cap refusal may come as a 500: retrying it only delays the split that answers it. Any
    // other 5xx (a 503 while vpxd is busy) is retried like every read.
    const retry = (answer: ServerErrorAnswer) => !isVmListRefusal(answer);
    return parseVmList(await getJson(path, retry), `GET ${path}`);
  }

  async function hosts(filter: HostFilter = {}): Promise<VcenterHostSummary[]> {
    const query = joinQuery(
      setQuery("datacenters", filter.datacenters),
      setQuery("clusters", filter.clusters),
    );
    const path = `/api/vcenter/host${query}`;
    return parseHostList(await getJson(path), `GET ${path}`);
  }

  async function clusters(filter: { datacenters?: readonly string[] } = {}) {
    const path = `/api/vcenter/cluster${joinQuery(setQuery("datacenters", filter.datacenters))}`;
    return parseClusterList(await getJson(path), `GET ${path}`);
  }

  async function datacenters() {
    const path = "/api/vcenter/datacenter";
    return parseDatacenterList(await getJson(path), `GET ${path}`);
  }

  async function vmFolders() {
    const path = "/api/vcenter/folder?type=VIRTUAL_MACHINE";
    return parseFolderList(await getJson(path), `GET ${path}`);
  }

  return {
    serverName,
    get hasSession() {
      return session.isOpen;
    },
    login: () => session.login(),
    logout: () => session.logout(),
    withSession: (fn) => scope.run(fn),
    async sessionInfo() {
      return parseSessionInfo(await getJson("/api/session"), "GET /api/session");
    },
    listVms,
    readVmListing: (hostIds) =>
      readVmListing({
        list: listVms,
        hosts: hostIds,
        folders: async () => (await vmFolders()).map((f) => f.folder),
        cap,
      }),
    async vmInfo(vm) {
      const path = `/api/vcenter/vm/${encodeURIComponent(vm)}`;
      return parseVmInfo(await getJson(path), `GET ${path}`);
    },
    async guestInterfaces(vm) {
      const path = `/api/vcenter/vm/${encodeURIComponent(vm)}/guest/networking/interfaces`;
      const read = await toolsRead(path, parseGuestInterfaces);
      return read.kind === "ok" ? { kind: "ok", interfaces: read.value } : read;
    },
    async guestIdentity(vm) {
      const path = `/api/vcenter/vm/${encodeURIComponent(vm)}/guest/identity`;
      const read = await toolsRead(path, parseGuestIdentity);
      return read.kind === "ok" ? { kind: "ok", identity: read.value } : read;
    },
    hosts,
    clusters,
    datacenters,
    vmFolders,
    placement: () => readPlacement({ datacenters, clusters, hosts }),
    close: () => scope.close(),
  };
}

function hostNameOf(baseUrl: string): string | null {
  try {
    return new URL(baseUrl).hostname || null;
  } catch {
    return null;
  }
}
