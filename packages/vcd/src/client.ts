import {
  connectorHttp,
  createSessionScope,
  type HyperClient,
  type HyperClientOptions,
  type HyperLogger,
} from "@hyperlens/hyper-http";
import { VCD_ALLOWED_WRITES } from "./allowed-writes.ts";
import { DEFAULT_API_VERSION } from "./api-version.ts";
import { hrefToApiPath } from "./href.ts";
import { type CloudApiListing, listCloudApiPages } from "./list-cloudapi-pages.ts";
import {
  type EdgeGatewayListing,
  type EdgeGatewayRecordListing,
  listEdgeGatewayPages,
  listEdgeGatewayRecordPages,
} from "./list-edge-gateways.ts";
import { listVmPages, type VmListing } from "./list-vms.ts";
import { parseDisks, type VcdDisk } from "./parse/disks.ts";
import {
  type EdgeGatewayRecordPage,
  parseEdgeGatewayRecords,
} from "./parse/edge-gateway-records.ts";
import { type EdgeGatewayPage, parseEdgeGatewayPage } from "./parse/edge-gateways.ts";
import { hasNextPageLink } from "./parse/link-header.ts";
import {
  parseNetworkConnectionSection,
  type VcdNetworkConnectionSection,
} from "./parse/network-connections.ts";
import { parseOrgPage, type VcdOrg } from "./parse/orgs.ts";
import type { VcdSessionInfo } from "./parse/session.ts";
import type { VcdApiVersion } from "./parse/versions.ts";
import {
  parseVirtualCenterPage,
  type VcdVirtualCenter,
  type VirtualCenterPage,
} from "./parse/virtual-centers.ts";
import { parseVmQueryPage, type VmQueryPage } from "./parse/vm-records.ts";
import { createVcdSession, type VcdCredentials } from "./session.ts";

/** hyper-http options for a Director connection; source and the login allowlist are filled in. */
export type VcdHttpOptions = Omit<HyperClientOptions, "source" | "allowedWrites">;

/** Options of {@link createVcdClient}. */
export interface VcdClientOptions {
  /**
   * A ready hyper-http client (it must allow {@link VCD_ALLOWED_WRITES}), or the options to build
   * one.
   */
  http: HyperClient | VcdHttpOptions;
  credentials: VcdCredentials;
  /** API version asked for first (default {@link DEFAULT_API_VERSION}); a 406 negotiates another. */
  apiVersion?: string;
  /**
   * Path prefix of the base URL ("/vcd") when `http` is a ready client; taken from the options
   * otherwise. Director's hrefs carry it and it must not be sent twice.
   */
  basePath?: string;
  /** Where a failed logout is reported (default: the http options' logger, else nowhere). */
  logger?: HyperLogger;
}

/** Director's own page-size ceiling is 128 by default; administrators can lower it. */
export const VM_QUERY_PAGE_SIZE = 128;
/** CloudAPI lists accept up to 128 per page on most endpoints. */
export const EDGE_GATEWAY_PAGE_SIZE = 128;
/** Page size asked of the registered vCenters (an install has a handful). */
export const VIRTUAL_CENTER_PAGE_SIZE = 128;

/** Typed, read-only Cloud Director client. Reads reject with a HyperError and need an open session. */
export interface VcdClient {
  /** The API version in use (negotiated after a 406). */
  readonly apiVersion: string;
  /** Provider administrator (org System): sessions/provider and the `adminVM` query. */
  readonly isProvider: boolean;
  /** Where the client and its adapter report what did not stop a read (a failed logout…). */
  readonly logger: HyperLogger;
  /** The open session, or null. */
  readonly session: VcdSessionInfo | null;
  login(): Promise<VcdSessionInfo>;
  /** Deletes the session; rejects when the DELETE fails (use {@link VcdClient.withSession}). */
  logout(): Promise<void>;
  /**
   * Logs in, runs `fn`, and always logs out — after success and after a failure part-way. A
   * logout failure is logged, never thrown over the real outcome. Nested calls share the
   * outer session; the outermost one logs out.
   */
  withSession<T>(fn: (session: VcdSessionInfo) => Promise<T>): Promise<T>;
  /** `GET /api/versions` (no session needed). */
  supportedVersions(): Promise<VcdApiVersion[]>;
  /** One page of the VM query (`type=vm`, or `adminVM` for providers). */
  vmQueryPage(page: number, pageSize?: number): Promise<VmQueryPage>;
  /**
   * Every page of the VM query, counted against `total`; read a second time when the list changed
   * meanwhile. Rejects when a page fails.
   */
  listVms(options?: {
    pageSize?: number;
    onPage?: (page: VmQueryPage, received: number) => void;
  }): Promise<VmListing>;
  /** `GET {vmHref}/networkConnectionSection/`. */
  networkConnectionSection(vmHref: string): Promise<VcdNetworkConnectionSection>;
  /** `GET {vmHref}/virtualHardwareSection/disks`, disks only. */
  disks(vmHref: string): Promise<VcdDisk[]>;
  /** One page of `GET /cloudapi/1.0.0/edgeGateways`, with the `Link: rel="nextPage"` flag. */
  edgeGatewayPage(
    page: number,
    pageSize?: number,
  ): Promise<EdgeGatewayPage & { hasNextPageLink: boolean }>;
  /** Every page of CloudAPI edge gateways; rejects when a page fails. */
  listEdgeGateways(options?: { pageSize?: number }): Promise<EdgeGatewayListing>;
  /** One page of the legacy query `type=edgeGateway` (older installs). */
  edgeGatewayRecordPage(page: number, pageSize?: number): Promise<EdgeGatewayRecordPage>;
  /** Every page of the legacy edge gateway query, counted against `total`. */
  listEdgeGatewayRecords(): Promise<EdgeGatewayRecordListing>;
  /** One page of `GET /cloudapi/1.0.0/virtualCenters` (provider sessions; tenants get 403). */
  virtualCenterPage(
    page: number,
    pageSize?: number,
  ): Promise<VirtualCenterPage & { hasNextPageLink: boolean }>;
  /** Every vCenter registered in Director; rejects when a page fails. */
  listVirtualCenters(options?: { pageSize?: number }): Promise<CloudApiListing<VcdVirtualCenter>>;
  /** Every organization the session may see (a provider: all), by `GET /cloudapi/1.0.0/orgs`. */
  listOrgs(options?: { pageSize?: number }): Promise<CloudApiListing<VcdOrg>>;
  /** Logs out if a session is still open (failure logged), then closes the http client if built here. */
  close(): Promise<void>;
}

/** Creates a {@link VcdClient} on hyper-http. */
export function createVcdClient(options: VcdClientOptions): VcdClient {
  const { http, builtFrom, ownsHttp, logger } = connectorHttp(options.http, {
    source: "Cloud Director",
    allowedWrites: VCD_ALLOWED_WRITES,
    logger: options.logger,
  });
  const basePath = builtFrom
    ? new URL(builtFrom.baseUrl).pathname.replace(/\/+$/, "")
    : (options.basePath ?? "");
  const session = createVcdSession({
    http,
    credentials: options.credentials,
    apiVersion: options.apiVersion ?? DEFAULT_API_VERSION,
    logger,
  });
  const scope = createSessionScope({ session, source: "Cloud Director", http, ownsHttp, logger });

  async function vmQueryPage(page: number, pageSize = VM_QUERY_PAGE_SIZE): Promise<VmQueryPage> {
    const type = session.isProvider ? "adminVM" : "vm";
    const query = { type, page, pageSize, format: "records" };
    const answer = await session.get("/api/query", "xml", query);
    return parseVmQueryPage(answer.text(), `GET /api/query?type=${type}&page=${page}`);
  }

  async function edgeGatewayRecordPage(page: number, pageSize = VM_QUERY_PAGE_SIZE) {
    const query = { type: "edgeGateway", page, pageSize, format: "records" };
    const answer = await session.get("/api/query", "xml", query);
    return parseEdgeGatewayRecords(answer.text(), `GET /api/query?type=edgeGateway&page=${page}`);
  }

  /** One page of a CloudAPI list, parsed, with the `Link: rel="nextPage"` flag. */
  async function cloudApiPage<P>(
    path: string,
    page: number,
    pageSize: number,
    parse: (body: unknown, call: string) => P,
  ): Promise<P & { hasNextPageLink: boolean }> {
    const answer = await session.get(path, "json", { page, pageSize });
    return {
      ...parse(answer.json(), `GET ${path}?page=${page}`),
      hasNextPageLink: hasNextPageLink(answer.headers.link),
    };
  }

  const edgeGatewayPage = (page: number, pageSize = EDGE_GATEWAY_PAGE_SIZE) =>
    cloudApiPage("/cloudapi/1.0.0/edgeGateways", page, pageSize, parseEdgeGatewayPage);

  const virtualCenterPage = (page: number, pageSize = VIRTUAL_CENTER_PAGE_SIZE) =>
    cloudApiPage("/cloudapi/1.0.0/virtualCenters", page, pageSize, parseVirtualCenterPage);

  const orgPage = (page: number, pageSize = VIRTUAL_CENTER_PAGE_SIZE) =>
    cloudApiPage("/cloudapi/1.0.0/orgs", page, pageSize, parseOrgPage);

  return {
    get apiVersion() {
      return session.apiVersion;
    },
    isProvider: session.isProvider,
    logger,
    get session() {
      return session.info;
    },
    login: () => session.login(),
    logout: () => session.logout(),
    // The scope logs in on the outermost call and always logs out (docs/behaviour.md §4 step 5); login() here
    // only hands every level the open session's info.
    withSession: (fn) => scope.run(async () => fn(await session.login())),
    supportedVersions: () => session.supportedVersions(),
    vmQueryPage,
    async listVms(listOptions = {}) {
      const read = () =>
        listVmPages((page) => vmQueryPage(page, listOptions.pageSize), listOptions.onPage);
      const first = await read();
      // A list that changed while it was read is read once more before giving up on removals.
      return first.isComplete ? first : read();
    },
    async networkConnectionSection(vmHref) {
      // Director's own href ends in a slash; without it some versions answer 404.
      const path = `${hrefToApiPath(vmHref, basePath).replace(/\/+$/, "")}/networkConnectionSection/`;
      const answer = await session.get(path, "xml");
      return parseNetworkConnectionSection(answer.text(), `GET ${path}`);
    },
    async disks(vmHref) {
      const path = `${hrefToApiPath(vmHref, basePath).replace(/\/+$/, "")}/virtualHardwareSection/disks`;
      const answer = await session.get(path, "xml");
      return parseDisks(answer.text(), `GET ${path}`);
    },
    edgeGatewayPage,
    listEdgeGateways: (listOptions = {}) =>
      listEdgeGatewayPages((page) => edgeGatewayPage(page, listOptions.pageSize)),
    edgeGatewayRecordPage,
    listEdgeGatewayRecords: () => listEdgeGatewayRecordPages((page) => edgeGatewayRecordPage(page)),
    virtualCenterPage,
    listVirtualCenters: (listOptions = {}) =>
      listCloudApiPages((page) => virtualCenterPage(page, listOptions.pageSize), {
        path: "/cloudapi/1.0.0/virtualCenters",
        noun: "vCenters",
        itemsOf: (page) => page.virtualCenters,
        idOf: (v) => v.id,
      }),
    listOrgs: (listOptions = {}) =>
      listCloudApiPages((page) => orgPage(page, listOptions.pageSize), {
        path: "/cloudapi/1.0.0/orgs",
        noun: "organizations",
        itemsOf: (page) => page.orgs,
        idOf: (o) => o.id,
      }),
    close: () => scope.close(),
  };
}
