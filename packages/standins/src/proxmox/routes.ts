import type { StandinReply } from "../http/reply.ts";
import type { Principal } from "./auth.ts";
import type { Guest, ProxmoxCluster, ProxmoxNode, QemuGuest } from "./model.ts";
import { permissionsMap } from "./privileges.ts";
import {
  guestResource,
  lxcConfig,
  lxcInterfaces,
  lxcListEntry,
  qemuConfig,
  qemuListEntry,
} from "./render-guests.ts";
import { clusterStatus, nodeListEntry, nodeResources, nodeStatus } from "./render-nodes.ts";
import type { PveReplies } from "./replies.ts";
import type { VersionTraits } from "./versions.ts";

/** What a route handler gets. */
export interface RouteContext {
  params: Record<string, string>;
  query: URLSearchParams;
  principal: Principal;
}

/** One GET endpoint of the stand-in, relative to `/api2/json`. */
export interface Route {
  template: string;
  pattern: RegExp;
  names: string[];
  handle(context: RouteContext): StandinReply;
}

/** What the routes read: the model, the release, the reply builder. */
export interface RouteDeps {
  cluster: ProxmoxCluster;
  traits: VersionTraits;
  replies: PveReplies;
}

/** The GET endpoints this release serves (GET /nodes/{node}/lxc/{vmid}/interfaces only from 8.1). */
export function proxmoxRoutes(deps: RouteDeps): Route[] {
  const { cluster, traits, replies } = deps;
  const routes: Route[] = [];
  const add = (
    template: string,
    handle: (context: RouteContext, route: string) => StandinReply,
  ) => {
    const names: string[] = [];
    const source = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    const label = `GET ${template}`;
    routes.push({
      template,
      names,
      pattern: new RegExp(`^${source}$`),
      handle: (context) => handle(context, label),
    });
  };
  const nodeIndex = (node: ProxmoxNode) => cluster.nodes.findIndex((n) => n.name === node.name);

  /** Runs `body` on a known, online node; pveproxy answers 595 when it cannot reach the node. */
  const onNode = (
    context: RouteContext,
    route: string,
    body: (node: ProxmoxNode) => StandinReply,
  ) => {
    const name = context.params.node ?? "";
    const node = cluster.node(name);
    if (!node) {
      return replies.error(
        500,
        `hostname lookup '${name}' failed - failed to get address info for: ${name}: Name or service not known`,
        route,
      );
    }
    if (!node.online) return replies.bare(595, "No route to host", route);
    return body(node);
  };

  /** Runs `body` with the guest, or answers as pveproxy does for a vmid not on this node. */
  const withGuest = <T extends Guest["type"]>(
    context: RouteContext,
    route: string,
    node: ProxmoxNode,
    type: T,
    body: (guest: Extract<Guest, { type: T }>) => StandinReply,
  ): StandinReply => {
    const raw = context.params.vmid ?? "";
    if (!/^\d+$/.test(raw)) return replies.error(400, "Parameter verification failed.", route);
    const guest = cluster.guest(Number(raw));
    if (guest && guest.node === node.name && guest.type === type) {
      return body(guest as Extract<Guest, { type: T }>);
    }
    const file = type === "qemu" ? `qemu-server/${raw}.conf` : `lxc/${raw}.conf`;
    return replies.error(
      500,
      `Configuration file 'nodes/${node.name}/${file}' does not exist`,
      route,
    );
  };

  add("/version", (_, route) =>
    replies.ok({ release: traits.release, repoid: traits.repoid, version: traits.version }, route),
  );
  add("/nodes", (_, route) => replies.ok(cluster.nodes.map(nodeListEntry), route));
  add("/cluster/status", (_, route) => replies.ok(clusterStatus(cluster), route));
  add("/cluster/resources", (context, route) => {
    const type = context.query.get("type");
    const online = new Map(cluster.nodes.map((n) => [n.name, n.online]));
    const entries: unknown[] = [];
    if (type === null || type === "vm") {
      for (const guest of cluster.guests)
        entries.push(guestResource(guest, online.get(guest.node) ?? false));
    }
    if (type === null || type === "node" || type === "storage") {
      cluster.nodes.forEach((node, index) => {
        for (const entry of nodeResources(node, index, traits)) {
          if (type === null || entry.type === type) entries.push(entry);
        }
      });
    }
    return replies.ok(entries, route);
  });
  add("/access/permissions", (context, route) =>
    replies.ok(permissionsMap(context.principal.role, traits), route),
  );
  add("/nodes/{node}/status", (context, route) =>
    onNode(context, route, (node) => replies.ok(nodeStatus(node, nodeIndex(node), traits), route)),
  );
  add("/nodes/{node}/qemu", (context, route) =>
    onNode(context, route, (node) =>
      replies.ok(
        cluster.guestsOn(node.name, "qemu").map((g) => qemuListEntry(g, traits)),
        route,
      ),
    ),
  );
  add("/nodes/{node}/lxc", (context, route) =>
    onNode(context, route, (node) =>
      replies.ok(
        cluster.guestsOn(node.name, "lxc").map((g) => lxcListEntry(g, traits)),
        route,
      ),
    ),
  );
  add("/nodes/{node}/qemu/{vmid}/config", (context, route) =>
    onNode(context, route, (node) =>
      withGuest(context, route, node, "qemu", (guest) =>
        replies.ok(qemuConfig(guest, traits), route),
      ),
    ),
  );
  add("/nodes/{node}/lxc/{vmid}/config", (context, route) =>
    onNode(context, route, (node) =>
      withGuest(context, route, node, "lxc", (guest) => replies.ok(lxcConfig(guest), route)),
    ),
  );
  for (const command of AGENT_COMMANDS) {
    add(`/nodes/{node}/qemu/{vmid}/agent/${command}`, (context, route) => {
      // Permissions are checked before pveproxy proxies to the node, so a 403 beats a 595.
      if (context.principal.role === "auditor" && !traits.auditorMayReadAgent) {
        const vmid = context.params.vmid ?? "";
        return replies.error(
          403,
          `Permission check failed (/vms/${vmid}, ${traits.agentPrivileges})`,
          route,
        );
      }
      return onNode(context, route, (node) =>
        withGuest(context, route, node, "qemu", (guest) =>
          agentReply(guest, command, replies, route),
        ),
      );
    });
  }
  if (traits.hasLxcInterfaces) {
    add("/nodes/{node}/lxc/{vmid}/interfaces", (context, route) =>
      onNode(context, route, (node) =>
        withGuest(context, route, node, "lxc", (guest) => replies.ok(lxcInterfaces(guest), route)),
      ),
    );
  }
  return routes;
}

/** The read-only agent commands the stand-in answers, each checked like the others. */
const AGENT_COMMANDS = ["network-get-interfaces", "get-host-name", "get-osinfo"] as const;
type AgentCommand = (typeof AGENT_COMMANDS)[number];

/** The agent checks in qemu-server's order: configured, VM running, agent answering. */
function agentReply(
  guest: QemuGuest,
  command: AgentCommand,
  replies: PveReplies,
  route: string,
): StandinReply {
  const configured = guest.config.agent;
  if (configured === undefined) return replies.error(500, "No QEMU guest agent configured", route);
  if (guest.status !== "running")
    return replies.error(500, `VM ${guest.vmid} is not running`, route);
  const agent = guest.agent;
  if (!isAgentEnabled(configured) || agent.state === "silent") {
    return replies.error(500, "QEMU guest agent is not running", route);
  }
  switch (agent.state) {
    case "command-fails":
      return replies.error(
        500,
        `VM ${guest.vmid} qga command 'guest-${command}' failed - ${agent.reason}`,
        route,
      );
    case "unsupported":
      return replies.ok(
        {
          result: {
            error: {
              class: "Unsupported",
              desc: "this feature or command is not currently supported",
            },
          },
        },
        route,
      );
    case "answers":
      return replies.ok({ result: answer(guest, agent, command) }, route);
  }
}

/** What an answering agent returns for the command, as qemu-ga spells it. */
function answer(
  guest: QemuGuest,
  agent: Extract<QemuGuest["agent"], { state: "answers" }>,
  command: AgentCommand,
): unknown {
  switch (command) {
    case "network-get-interfaces":
      return agent.interfaces;
    case "get-host-name":
      return { "host-name": agent.identity?.hostName ?? guest.name };
    case "get-osinfo":
      return agent.identity?.osInfo ?? defaultOsInfo(String(guest.config.ostype ?? "l26"));
  }
}

/** A plausible `guest-get-osinfo` result for the config's ostype (qemu-ga's key names). */
function defaultOsInfo(ostype: string): Record<string, string> {
  if (ostype.startsWith("win")) {
    return {
      name: "Microsoft Windows",
      "pretty-name": "Windows Server 2022 Standard",
      version: "Microsoft Windows Server 2022",
      "version-id": "2022",
      id: "mswindows",
      "kernel-release": "20348",
      "kernel-version": "10.0",
      machine: "x86_64",
    };
  }
  return {
    name: "Debian GNU/Linux",
    "pretty-name": "Debian GNU/Linux 12 (bookworm)",
    version: "12 (bookworm)",
    "version-id": "12",
    id: "debian",
    "kernel-release": "6.1.0-18-amd64",
    "kernel-version": "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)",
    machine: "x86_64",
  };
}

/** `agent: 1`, `"1,fstrim_cloned_disks=1"`, `"enabled=1,…"`; 0 means configured but off. */
function isAgentEnabled(value: string | number): boolean {
  const first = String(value).split(",")[0] ?? "";
  const flag = first.startsWith("enabled=") ? first.slice("enabled=".length) : first;
  return flag === "1" || flag === "yes" || flag === "on" || flag === "true";
}
