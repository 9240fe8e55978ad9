// GET /sd/prometheus: Prometheus' HTTP service discovery (`[{targets, labels}]`), one target
// group per guest and asked port, at the guest's primary address (docs/behaviour.md §14.15–§14.17).
import { createHash } from "node:crypto";
import type { Prisma, PrismaClient } from "@hyperlens/db";
import type { Viewer } from "../auth/viewer.ts";
import { visibleConnections, visibleVms } from "../auth/visibility.ts";
import type { InventoryHost } from "./inventory-hosts.ts";
import { familyOf } from "./inventory-query.ts";
import type { Utf8Chunks } from "./utf8-chunks.ts";

const META = "__meta_hyperlens_";

/** `address:port`, IPv6 in brackets; the bare address (bracketed) without a port. */
export function targetOf(address: string, port: number | undefined): string {
  const host = familyOf(address) === "ipv6" ? `[${address}]` : address;
  return port === undefined ? host : `${host}:${port}`;
}

const json = JSON.stringify;

/**
 * A guest's labels as JSON, `_tags` as Prometheus' other discoveries join them: `,a,b,`. Written
 * out label by label: an object per guest only to stringify it was the export's largest cost.
 */
export function labelsJson(host: InventoryHost): string {
  const { row } = host;
  return `{"${META}source":${json(row.source)},\
"${META}connection":${json(host.connectionName)},\
"${META}node":${json(row.nodeName ?? "")},\
"${META}cluster":${json(row.clusterName ?? "")},\
"${META}org":${json(row.orgName ?? "")},\
"${META}vdc":${json(row.vdcName ?? "")},\
"${META}state":${json(row.state)},\
"${META}tags":${json(row.tags.length ? `,${row.tags.join(",")},` : "")},\
"${META}os":${json(row.guestOs ?? "")},\
"${META}vm_name":${json(row.name)},\
"${META}vm_id":${json(host.globalId)}}`;
}

/** Writes the target groups as pages of hosts arrive; a guest without an address has none. */
export async function writePrometheusTargets(
  pages: AsyncIterable<InventoryHost[]>,
  ports: readonly number[],
  out: Utf8Chunks,
): Promise<void> {
  const perGuest = ports.length ? ports : [undefined];
  out.add("[");
  let first = true;
  for await (const page of pages) {
    for (const host of page) {
      const address = host.primaryAddress;
      if (address === undefined) continue;
      const labels = labelsJson(host);
      for (const port of perGuest) {
        out.add(
          `${first ? "" : ","}{"targets":[${json(targetOf(address, port))}],"labels":${labels}}`,
        );
        first = false;
      }
    }
    await out.flush();
  }
  out.add("]");
  await out.flush(true);
}

/**
 * An entity tag for what the query would list, from one aggregate instead of the list: every
 * sync write of a guest moves its lastSeenAt (and changedAt when it changed), a removal lowers
 * the count, and the connections' names and the viewer's scope are part of it.
 */
export async function targetsEtag(
  prisma: PrismaClient,
  viewer: Viewer,
  where: Prisma.VirtualMachineWhereInput,
  query: string,
): Promise<string> {
  const [guests, connections] = await Promise.all([
    prisma.virtualMachine.aggregate({
      where: { AND: [where, visibleVms(viewer)] },
      _count: { _all: true },
      _max: { lastSeenAt: true, changedAt: true },
    }),
    prisma.connection.findMany({
      where: visibleConnections(viewer),
      select: { id: true, name: true },
      orderBy: { id: "asc" },
    }),
  ]);
  const digest = createHash("sha256")
    .update(
      JSON.stringify([
        query,
        viewer.scope,
        guests._count._all,
        guests._max.lastSeenAt?.toISOString(),
        guests._max.changedAt?.toISOString(),
        connections,
      ]),
    )
    .digest("base64url")
    .slice(0, 27);
  return `"${digest}"`;
}

/** Whether an If-None-Match header names this tag (or `*`). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === etag || tag === "*");
}
