import { setTimeout as sleep } from "node:timers/promises";
import type { StandinHandler, StandinReply, StandinRequest } from "../http/reply.ts";
import type { DirectorModel, VcdVm, VmPlacement } from "./model.ts";
import { type NamespaceStyle, prefixesOf } from "./namespaces.ts";
import { pageWindow, slice } from "./paging.ts";
import { edgeGatewayJson } from "./render-edge-gateways.ts";
import {
  applyFilter,
  edgeGatewayRecord,
  type QueryRecord,
  queryResultRecords,
  vmRecord,
} from "./render-query.ts";
import { virtualCenterJson } from "./render-virtual-centers.ts";
import { disksXml, networkConnectionSectionXml, vmXml } from "./render-vm.ts";
import { VcdReplies } from "./replies.ts";
import type { VcdRole, VcdSession, VcdSessions } from "./sessions.ts";
import {
  type ApiVersionRange,
  requestedVersion,
  supportedVersionsXml,
  versionsIn,
} from "./versions.ts";

/** The CloudAPI prefix. */
export const CLOUDAPI = "/cloudapi/1.0.0";

/** Switches a test may flip while the stand-in runs; read on every request. */
export interface VcdSettings {
  /** Namespace prefixes of XML answers. */
  namespaces: NamespaceStyle;
  /** The query service's `restapi.queryservice.maxPageSize`; larger pages are capped silently. */
  maxPageSize: number;
  /** Cap of `pageSize` on `/cloudapi/1.0.0/edgeGateways`. */
  edgeGatewayMaxPageSize: number;
  /** Cap of `pageSize` on the other CloudAPI lists (`/cloudapi/1.0.0/virtualCenters`). */
  cloudApiMaxPageSize: number;
  /** Leave `pageCount` out of CloudAPI pages (an API bug go-vcloud-director works around). */
  omitEdgeGatewayPageCount: boolean;
  /** Leave the `Link` headers out of CloudAPI pages (the same bug's other half). */
  omitEdgeGatewayLinks: boolean;
  /** API versions accepted in `Accept: …;version=X`; others get 406. */
  apiVersions: ApiVersionRange;
  /** Delay before every 401 of the login endpoints; default 0. */
  authFailureDelayMs: number;
}

/** A request the stand-in refused because it would change something. */
export interface WriteAttempt {
  method: string;
  path: string;
  /** Status it was answered with. */
  status: number;
}

/** What {@link vcdHandler} needs. */
export interface VcdHandlerDeps {
  model: DirectorModel;
  sessions: VcdSessions;
  settings: VcdSettings;
  writeAttempts: WriteAttempt[];
  now: () => number;
}

type Context = {
  request: StandinRequest;
  base: string;
  replies: VcdReplies;
  session: VcdSession;
};

/**
 * Director's request pipeline: `/api/versions` without anything, then the API version in
 * `Accept`, then the login endpoints, then the bearer token, then refusal of every write,
 * then the route (404 when none).
 */
export function vcdHandler(deps: VcdHandlerDeps): StandinHandler {
  const { model, sessions, settings, now } = deps;

  return async (request) => {
    const started = now();
    const { method, path } = request;
    const isCloudApi = path.startsWith("/cloudapi/");
    const base = `https://${request.headers.host ?? "localhost"}`;
    const supported = versionsIn(settings.apiVersions);
    const asked = requestedVersion(request.headers.accept);
    const prefixes = prefixesOf(settings.namespaces);
    const replies = new VcdReplies(
      asked ?? supported[supported.length - 1] ?? "37.0",
      prefixes,
      now,
      started,
    );
    const error = (status: number, message: string, route?: string) =>
      isCloudApi
        ? replies.jsonError(status, message, route)
        : replies.xmlError(status, message, route);

    const isLogin = method === "POST" && /^\/cloudapi\/1\.0\.0\/sessions(\/provider)?$/.test(path);
    const isLogout = method === "DELETE" && path.startsWith(`${CLOUDAPI}/sessions/`);
    const isWrite = method !== "GET" && method !== "HEAD" && !isLogin && !isLogout;
    const refuse = (reply: StandinReply): StandinReply => {
      // TRAP: docs/behaviour.md §4 / read-only — every write is logged so tests prove only GET + login/logout arrived.
      if (isWrite) deps.writeAttempts.push({ method, path, status: reply.status });
      return reply;
    };

    if (method === "GET" && path.replace(/\/$/, "") === "/api/versions") {
      return {
        status: 200,
        headers: replies.headers(`application/*+xml;version=${replies.version}`),
        body: supportedVersionsXml(supported, base),
        route: "GET /api/versions",
      };
    }
    if (asked === undefined || !supported.includes(asked)) {
      return refuse(
        error(
          406,
          `The request has invalid accept header: Invalid API version requested (${asked ?? "none"}). Supported API versions are: ${supported.join(", ")}`,
        ),
      );
    }

    if (isLogin) return login(request, path.endsWith("/provider") ? "provider" : "tenant", replies);

    const session = sessions.authenticate(request.headers);
    if (!session) return refuse(error(401, "Unauthorized"));
    const context: Context = { request, base, replies, session };

    if (isLogout) return logout(context);
    if (isWrite) {
      const reply =
        method === "POST" || method === "PUT" || method === "DELETE" || method === "PATCH"
          ? error(403, "This operation is denied.")
          : error(405, `Method ${method} is not allowed`);
      return refuse(reply);
    }

    if (path === `${CLOUDAPI}/sessions/current`) return currentSession(context);
    if (path === `${CLOUDAPI}/edgeGateways`) return edgeGateways(context);
    if (path === `${CLOUDAPI}/virtualCenters`) return virtualCenters(context);
    if (path === `${CLOUDAPI}/orgs`) return orgs(context);
    if (path === "/api/query") return query(context, error);
    const vmMatch =
      /^\/api\/(vApp|vAppTemplate)\/vm-([0-9a-fA-F-]{36})(\/networkConnectionSection\/?|\/virtualHardwareSection\/disks\/?)?$/.exec(
        path,
      );
    if (vmMatch) {
      const id = vmMatch[2] ?? "";
      return vmEntity(context, id, vmMatch[1] === "vAppTemplate", vmMatch[3], error);
    }
    return error(404, `The requested resource ${path} was not found`);
  };

  async function login(
    request: StandinRequest,
    endpoint: VcdRole,
    replies: VcdReplies,
  ): Promise<StandinReply> {
    const route = `POST ${CLOUDAPI}/sessions${endpoint === "provider" ? "/provider" : ""}`;
    const result = sessions.login(request.headers.authorization, endpoint);
    if (!result.ok) {
      if (settings.authFailureDelayMs > 0) await sleep(settings.authFailureDelayMs);
      return result.reason === "bad-credentials"
        ? replies.empty(401, route, { "WWW-Authenticate": 'Basic realm="vCloud"' })
        : replies.empty(401, route);
    }
    const { session } = result;
    return replies.json(sessionJson(session), route, {
      "X-VMWARE-VCLOUD-ACCESS-TOKEN": session.token,
      "X-VMWARE-VCLOUD-TOKEN-TYPE": "Bearer",
    });
  }

  function sessionJson(session: VcdSession): Record<string, unknown> {
    const org = { name: session.orgName, id: `urn:vcloud:org:${session.orgId}` };
    const role =
      session.role === "provider" ? "System Administrator" : "Organization Administrator";
    return {
      id: session.id,
      site: { name: model.site, id: "urn:vcloud:site:7c2f8c5e-2d43-4d55-9b2a-8c1e4f0a6b3d" },
      user: { name: session.user.user, id: `urn:vcloud:user:${session.userId}` },
      org,
      operatingOrg: org,
      location: `${model.site}@${session.orgName}`,
      roles: [role],
      roleRefs: [{ name: role, id: "urn:vcloud:role:9443e3b2-6cc4-4007-bcae-ea0adee976f9" }],
      sessionIdleTimeoutMinutes: 30,
    };
  }

  function logout({ request, replies, session }: Context): StandinReply {
    const raw = request.path.slice(`${CLOUDAPI}/sessions/`.length);
    const route = `DELETE ${CLOUDAPI}/sessions/{id}`;
    const id = decodeURIComponent(raw);
    const target = id === "current" ? session : sessions.byId(id);
    if (!target) return replies.jsonError(404, `Session ${id} not found`, route);
    if (target.userId !== session.userId && session.role !== "provider") {
      return replies.jsonError(403, "This operation is denied.", route);
    }
    sessions.close(target);
    return replies.empty(204, route);
  }

  function currentSession({ replies, session }: Context): StandinReply {
    return replies.json(sessionJson(session), `GET ${CLOUDAPI}/sessions/current`);
  }

  function visibleVm(session: VcdSession, where: VmPlacement | undefined): where is VmPlacement {
    return where !== undefined && (session.role === "provider" || where.org.id === session.orgId);
  }

  function query(
    { request, base, replies, session }: Context,
    error: (status: number, message: string, route?: string) => StandinReply,
  ): StandinReply {
    const type = request.query.get("type") ?? "";
    const route = `GET /api/query?type=${type}`;
    const format = request.query.get("format") ?? "records";
    if (format !== "records") {
      return error(400, `The stand-in serves format=records only, not ${format}`, route);
    }
    const window = pageWindow(request.query, settings.maxPageSize);
    if (typeof window === "string") return error(400, window, route);
    const filter = request.query.get("filter");
    let recordName: string;
    let rows: Array<() => QueryRecord>;
    if (type === "vm" || type === "adminVM") {
      if (type === "adminVM" && session.role !== "provider") {
        return error(403, "This operation is denied.", route);
      }
      const isAdmin = type === "adminVM";
      // A VM whose vCenter was unregistered still names it by id, as Director's record does.
      const vcenterOf = (vm: VcdVm) =>
        model.vcenterOf(vm) ?? { id: vm.vcenterId ?? model.vcenter.id, name: "" };
      recordName = isAdmin ? "AdminVMRecord" : "VMRecord";
      rows = [];
      for (const vm of model.vms) {
        const where = model.placement(vm);
        if (visibleVm(session, where)) {
          rows.push(() => vmRecord(base, vm, where, isAdmin ? vcenterOf(vm) : undefined));
        }
      }
    } else if (type === "edgeGateway") {
      recordName = "EdgeGatewayRecord";
      rows = [];
      for (const edge of model.edgeGateways) {
        const org = model.edgeOrg(edge);
        if (!org || (session.role !== "provider" && org.id !== session.orgId)) continue;
        const vdcId =
          edge.owner.kind === "vdc" ? edge.owner.id : model.vdcGroup(edge.owner.id)?.vdcIds[0];
        if (vdcId !== undefined) rows.push(() => edgeGatewayRecord(base, edge, vdcId));
      }
    } else {
      return error(400, `Invalid query type: ${type}`, route);
    }
    let records: QueryRecord[];
    let total: number;
    let pageCount: number;
    if (filter === null || filter === "") {
      // Only the page is rendered: a 5,000-VM inventory stays cheap to page through.
      const page = slice(rows, window);
      records = page.items.map((row) => row());
      total = rows.length;
      pageCount = page.pageCount;
    } else {
      const filtered = applyFilter(
        rows.map((row) => row()),
        filter,
      );
      if (typeof filtered === "string") return error(400, filtered, route);
      const page = slice(filtered, window);
      records = page.items;
      total = filtered.length;
      pageCount = page.pageCount;
    }
    const body = queryResultRecords({
      base,
      type,
      recordName,
      records,
      window,
      total,
      pageCount,
      filter: filter === "" ? null : filter,
      prefixes: replies.prefixes,
    });
    return replies.xml("query.records", body, route);
  }

  function vmEntity(
    { base, replies, session }: Context,
    id: string,
    template: boolean,
    section: string | undefined,
    error: (status: number, message: string, route?: string) => StandinReply,
  ): StandinReply {
    const kind = template ? "vAppTemplate" : "vApp";
    const suffix =
      section === undefined
        ? ""
        : section.startsWith("/network")
          ? "/networkConnectionSection/"
          : "/virtualHardwareSection/disks";
    const route = `GET /api/${kind}/vm-{uuid}${suffix}`;
    const vm = model.vm(id.toLowerCase());
    const where = vm && model.placement(vm);
    if (!vm || !visibleVm(session, where) || where.vapp.template !== template) {
      // Director answers 403, not 404, for an entity that is gone or belongs to another org.
      return error(
        403,
        `[ ${id} ] Either you need some or all of the following rights [VAPP_VM_VIEW] to perform operations [VAPP_VM_VIEW] for vm-${id} or the target entity is invalid.`,
        route,
      );
    }
    const p = replies.prefixes;
    if (suffix === "") return replies.xml("vm", vmXml(base, vm, where, p), route);
    if (suffix.startsWith("/network")) {
      const body = networkConnectionSectionXml(base, vm, template, p);
      return replies.xml("networkConnectionSection", body, route);
    }
    return replies.xml("rasdItemsList", disksXml(base, vm, template, p), route);
  }

  function edgeGateways(context: Context): StandinReply {
    const { session } = context;
    const visible = model.edgeGateways.filter((edge) => {
      const org = model.edgeOrg(edge);
      return org !== undefined && (session.role === "provider" || org.id === session.orgId);
    });
    return cloudApiList(context, {
      name: "edgeGateways",
      model: "EdgeGateways",
      items: visible,
      render: (edge) => edgeGatewayJson(model, edge),
      maxPageSize: settings.edgeGatewayMaxPageSize,
      omitPageCount: settings.omitEdgeGatewayPageCount,
      omitLinks: settings.omitEdgeGatewayLinks,
    });
  }

  function virtualCenters(context: Context): StandinReply {
    if (context.session.role !== "provider") {
      const route = `GET ${CLOUDAPI}/virtualCenters`;
      return context.replies.jsonError(403, "This operation is denied.", route);
    }
    return cloudApiList(context, {
      name: "virtualCenters",
      model: "VCenterServers",
      items: model.vcenters,
      render: virtualCenterJson,
      maxPageSize: settings.cloudApiMaxPageSize,
      omitPageCount: false,
      omitLinks: false,
    });
  }

  /** Organizations as `GET /cloudapi/1.0.0/orgs` lists them: a provider sees all, a tenant its own. */
  function orgs(context: Context): StandinReply {
    const { session } = context;
    return cloudApiList(context, {
      name: "orgs",
      model: "Orgs",
      items: model.orgs.filter((org) => session.role === "provider" || org.id === session.orgId),
      render: (org) => ({
        id: `urn:vcloud:org:${org.id}`,
        name: org.name,
        displayName: org.fullName,
        isEnabled: true,
      }),
      maxPageSize: settings.cloudApiMaxPageSize,
      omitPageCount: false,
      omitLinks: false,
    });
  }

  /** A page of a CloudAPI list with its `Link` headers; `filter` is refused (the stand-in has none). */
  function cloudApiList<T>(
    { request, base, replies }: Context,
    list: {
      name: string;
      model: string;
      items: T[];
      render: (item: T) => Record<string, unknown>;
      maxPageSize: number;
      omitPageCount: boolean;
      omitLinks: boolean;
    },
  ): StandinReply {
    const route = `GET ${CLOUDAPI}/${list.name}`;
    if (request.query.get("filter")) {
      return replies.jsonError(400, `The stand-in does not filter ${list.name}`, route);
    }
    const window = pageWindow(request.query, list.maxPageSize);
    if (typeof window === "string") return replies.jsonError(400, window, route);
    const page = slice(list.items, window);
    const body: Record<string, unknown> = {
      resultTotal: list.items.length,
      pageCount: page.pageCount,
      page: window.page,
      pageSize: window.pageSize,
      associations: null,
      values: page.items.map(list.render),
    };
    if (list.omitPageCount) delete body.pageCount;
    const link = (page: number, rel: string) =>
      `<${base}${CLOUDAPI}/${list.name}?page=${page}&pageSize=${window.pageSize}>;rel="${rel}";type="application/json";model="${list.model}"`;
    const links: string[] = [];
    if (window.page < page.pageCount) {
      links.push(link(window.page + 1, "nextPage"), link(page.pageCount, "lastPage"));
    }
    if (window.page > 1) links.push(link(window.page - 1, "previousPage"), link(1, "firstPage"));
    const extra: Record<string, string[]> =
      links.length > 0 && !list.omitLinks ? { Link: links } : {};
    return replies.json(body, route, extra);
  }
}
