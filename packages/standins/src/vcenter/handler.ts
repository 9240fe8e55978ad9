import type { StandinHandler, StandinReply, StandinRequest } from "../http/reply.ts";
import type { VcenterModel, VcenterVm } from "./model.ts";
import type { VcenterReleaseTraits } from "./releases.ts";
import {
  clusterOfVm,
  clusterSummary,
  guestIdentity,
  guestInterfaces,
  hostSummary,
  vmInfo,
  vmSummary,
} from "./render.ts";
import { jsonReply, vsphereError } from "./replies.ts";
import type { VcenterSession, VcenterSessions } from "./sessions.ts";

/** Switches a test may flip while the stand-in runs; read on every request. */
export interface VcenterSettings {
  /** Most VMs `GET /api/vcenter/vm` answers; more matching ones are refused (vCenter: 4,000). */
  vmListCap: number;
  /**
   * The status of that refusal, UNABLE_TO_ALLOCATE_RESOURCE: 500 as the 7.0.3 OpenAPI file says
   * (default), or 400, as VMware's vAPI runtimes map that error type.
   */
  vmListCapStatus?: 400 | 500;
  /**
   * Past the cap, answer the first `vmListCap` matches with 200 instead of the 500. No vCenter
   * release does this; it stands for a proxy or build that cuts the list silently, which a
   * client must not take for the whole list.
   */
  cutsListAtCap?: boolean;
}

/** A request the stand-in refused because it would change something. */
export interface VcenterWriteAttempt {
  method: string;
  path: string;
  /** Status it was answered with. */
  status: number;
}

/** What {@link vcenterHandler} needs. */
export interface VcenterHandlerDeps {
  model: VcenterModel;
  /** The release whose answers are imitated. */
  release: VcenterReleaseTraits;
  sessions: VcenterSessions;
  settings: VcenterSettings;
  writeAttempts: VcenterWriteAttempt[];
}

const POWER_STATES = new Set(["POWERED_ON", "POWERED_OFF", "SUSPENDED"]);

/** The values of a set filter (`hosts=a&hosts=b`, also `hosts=a,b`); undefined when absent. */
function setFilter(query: URLSearchParams, name: string): Set<string> | undefined {
  const values = query
    .getAll(name)
    .flatMap((v) => v.split(","))
    .filter((v) => v !== "");
  return values.length ? new Set(values) : undefined;
}

const passes = (filter: Set<string> | undefined, value: string | null | undefined) =>
  filter === undefined || (value != null && filter.has(value));

const unauthenticated = () =>
  vsphereError(
    "UNAUTHENTICATED",
    "com.vmware.vapi.endpoint.method.authentication.required",
    "Authentication required.",
    [],
    undefined,
    {
      "WWW-Authenticate": 'Basic realm="VAPI endpoint",SIGN realm=27ade2c5,service="VAPI endpoint"',
    },
  );

const notFound = (what: string, id: string) =>
  vsphereError(
    "NOT_FOUND",
    `com.vmware.api.vcenter.${what}.not_found`,
    `${what === "vm" ? "Virtual machine" : what} with identifier '${id}:standin' does not exist.`,
    [id],
  );

/**
 * vCenter's `/api` pipeline: the Basic login, then the session header (401 UNAUTHENTICATED
 * otherwise), logout, refusal of every other write, then the routes (404 when none).
 */
export function vcenterHandler(deps: VcenterHandlerDeps): StandinHandler {
  const { model, sessions, settings, release } = deps;

  return (request) => {
    const { method, path } = request;
    const isLogin = method === "POST" && path === "/api/session";
    const isLogout = method === "DELETE" && path === "/api/session";
    const isWrite = method !== "GET" && method !== "HEAD" && !isLogin && !isLogout;
    const refuse = (reply: StandinReply): StandinReply => {
      // TRAP: docs/behaviour.md §2 — every write is logged so tests prove only GET + session POST/DELETE arrived.
      if (isWrite) deps.writeAttempts.push({ method, path, status: reply.status });
      return reply;
    };

    if (isLogin) {
      const session = sessions.login(request.headers.authorization);
      if (!session) return unauthenticated();
      // The token is a bare JSON string, not an object.
      return jsonReply(session.token, "POST /api/session", 201);
    }
    const session = sessions.authenticate(request.headers);
    if (!session) return refuse(unauthenticated());
    if (isLogout) {
      sessions.close(session);
      return { status: 204, route: "DELETE /api/session" };
    }
    if (isWrite) {
      return refuse(
        vsphereError(
          "UNAUTHORIZED",
          "com.vmware.vapi.endpoint.method.authorization.denied",
          "Permission denied: this stand-in is read-only.",
        ),
      );
    }
    return route(request, session);
  };

  function route(request: StandinRequest, session: VcenterSession): StandinReply {
    const { path, query } = request;
    if (path === "/api/session") {
      return jsonReply(
        {
          user: `VSPHERE.LOCAL\\${session.user.user.split("@")[0] ?? session.user.user}`,
          created_time: new Date(session.openedAt).toISOString(),
          last_accessed_time: new Date(session.lastAccessedAt).toISOString(),
        },
        "GET /api/session",
      );
    }
    if (path === "/api/vcenter/vm") return vmList(query);
    const vmMatch =
      /^\/api\/vcenter\/vm\/([^/]+)(\/guest\/networking\/interfaces|\/guest\/identity)?$/.exec(
        path,
      );
    if (vmMatch?.[1]) {
      const id = decodeURIComponent(vmMatch[1]);
      const vm = model.vm(id);
      if (!vmMatch[2]) {
        return vm ? jsonReply(vmInfo(vm, release), "GET /api/vcenter/vm/{vm}") : notFound("vm", id);
      }
      const isIdentity = vmMatch[2] === "/guest/identity";
      const route = isIdentity
        ? "GET /api/vcenter/vm/{vm}/guest/identity"
        : "GET /api/vcenter/vm/{vm}/guest/networking/interfaces";
      if (!vm) return { ...notFound("vm", id), route };
      if (vm.powerState !== "POWERED_ON" || !vm.isToolsRunning) {
        return vsphereError(
          "SERVICE_UNAVAILABLE",
          "com.vmware.api.vcenter.vm.guest.tools_not_running",
          "VMware Tools is not running.",
          [],
          route,
        );
      }
      return jsonReply(isIdentity ? guestIdentity(vm) : guestInterfaces(vm), route);
    }
    if (path === "/api/vcenter/host") {
      const ids = setFilter(query, "hosts");
      const names = setFilter(query, "names");
      const dcs = setFilter(query, "datacenters");
      const clusters = setFilter(query, "clusters");
      const states = setFilter(query, "connection_states");
      const standalone = query.get("standalone");
      const hosts = model.hosts.filter(
        (h) =>
          passes(ids, h.id) &&
          passes(names, h.name) &&
          passes(dcs, h.datacenterId) &&
          passes(clusters, h.clusterId) &&
          passes(states, h.connectionState) &&
          (standalone === null || (standalone === "true") === (h.clusterId === null)),
      );
      return jsonReply(hosts.map(hostSummary), "GET /api/vcenter/host");
    }
    if (path === "/api/vcenter/cluster") {
      const ids = setFilter(query, "clusters");
      const names = setFilter(query, "names");
      const dcs = setFilter(query, "datacenters");
      const clusters = model.clusters.filter(
        (c) => passes(ids, c.id) && passes(names, c.name) && passes(dcs, c.datacenterId),
      );
      return jsonReply(clusters.map(clusterSummary), "GET /api/vcenter/cluster");
    }
    const clusterMatch = /^\/api\/vcenter\/cluster\/([^/]+)$/.exec(path);
    if (clusterMatch?.[1]) {
      const cluster = model.cluster(decodeURIComponent(clusterMatch[1]));
      if (!cluster) return notFound("cluster", decodeURIComponent(clusterMatch[1]));
      return jsonReply(
        { name: cluster.name, resource_pool: `resgroup-${cluster.id.replace(/\D/g, "")}` },
        "GET /api/vcenter/cluster/{cluster}",
      );
    }
    if (path === "/api/vcenter/datacenter") {
      const ids = setFilter(query, "datacenters");
      const names = setFilter(query, "names");
      const dcs = model.datacenters.filter((d) => passes(ids, d.id) && passes(names, d.name));
      return jsonReply(
        dcs.map((d) => ({ name: d.name, datacenter: d.id })),
        "GET /api/vcenter/datacenter",
      );
    }
    if (path === "/api/vcenter/folder") {
      const type = query.get("type");
      const ids = setFilter(query, "folders");
      const dcs = setFilter(query, "datacenters");
      // The stand-in has VM folders only.
      const folders =
        type !== null && type !== "VIRTUAL_MACHINE"
          ? []
          : model.folders.filter((f) => passes(ids, f.id) && passes(dcs, f.datacenterId));
      return jsonReply(
        folders.map((f) => ({ folder: f.id, name: f.name, type: "VIRTUAL_MACHINE" })),
        "GET /api/vcenter/folder",
      );
    }
    return vsphereError(
      "OPERATION_NOT_FOUND",
      "com.vmware.vapi.rest.httpNotFound",
      `No operation matches GET ${path}.`,
    );
  }

  function vmList(query: URLSearchParams): StandinReply {
    const route = "GET /api/vcenter/vm";
    const powerStates = setFilter(query, "power_states");
    for (const state of powerStates ?? []) {
      if (!POWER_STATES.has(state)) {
        return vsphereError(
          "INVALID_ARGUMENT",
          "vapi.bindings.typeconverter.invalid.enum",
          `Invalid value '${state}' for enumeration power_states.`,
          [state],
          route,
        );
      }
    }
    const ids = setFilter(query, "vms");
    const names = setFilter(query, "names");
    const hosts = setFilter(query, "hosts");
    const clusters = setFilter(query, "clusters");
    const dcs = setFilter(query, "datacenters");
    const folders = setFilter(query, "folders");
    const matches = model.vms.filter(
      (vm: VcenterVm) =>
        passes(ids, vm.id) &&
        passes(names, vm.name) &&
        passes(hosts, vm.hostId) &&
        passes(clusters, clusterOfVm(model, vm)) &&
        passes(dcs, model.datacenterOf(vm)) &&
        passes(folders, vm.folderId) &&
        passes(powerStates, vm.powerState),
    );
    if (matches.length > settings.vmListCap && settings.cutsListAtCap) {
      return jsonReply(matches.slice(0, settings.vmListCap).map(vmSummary), route);
    }
    if (matches.length > settings.vmListCap) {
      const refusal = vsphereError(
        "UNABLE_TO_ALLOCATE_RESOURCE",
        "com.vmware.api.vcenter.vm.max_vms_exceeded",
        "Too many virtual machines. Add more filter criteria to reduce the number.",
        [String(settings.vmListCap)],
        route,
      );
      return { ...refusal, status: settings.vmListCapStatus ?? refusal.status };
    }
    return jsonReply(matches.map(vmSummary), route);
  }
}
