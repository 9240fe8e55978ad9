// The tabs of Settings and the one a path asks for: a tab per source the viewer may see, and
// Address rules for administrators (docs/behaviour.md §9.4, §9.41).
import { CONNECTION_KINDS, type ConnectionKind, MANAGE_CAPABILITY } from "@hyperlens/shared";
import type { Viewer } from "../app.tsx";

/** A tab of Settings: a source's connections, or the global address rules. */
export type SettingsTab = ConnectionKind | "ADDRESS_RULES";

const SLUG: Record<SettingsTab, string> = {
  PROXMOX: "proxmox",
  VCD: "director",
  VCENTER: "vcenter",
  ADDRESS_RULES: "address-rules",
};

/** The path of a tab. */
export function tabPath(tab: SettingsTab): string {
  return `/settings/${SLUG[tab]}`;
}

/** The tabs this viewer may open; the API enforces the same rules. */
export function settingsTabs(viewer: Pick<Viewer, "isAdmin" | "capabilities">): SettingsTab[] {
  const canView = viewer.capabilities.includes("VIEW_INVENTORY");
  const tabs: SettingsTab[] = CONNECTION_KINDS.filter(
    (k) => canView || viewer.capabilities.includes(MANAGE_CAPABILITY[k]),
  );
  // The global rules decide every connection's addresses: administrators only.
  if (viewer.isAdmin) tabs.push("ADDRESS_RULES");
  return tabs;
}

/**
 * The tab a Settings path asks for: an allowed one it names, else the first allowed. A tab named
 * but not allowed is refused rather than swapped for another (§9.40).
 */
export function tabOfPath(
  pathname: string,
  allowed: readonly SettingsTab[],
): { tab: SettingsTab | undefined; isRefused: boolean } {
  const slug = pathname.split("/")[2];
  const named = (Object.keys(SLUG) as SettingsTab[]).find((tab) => SLUG[tab] === slug);
  if (named && !allowed.includes(named)) return { tab: undefined, isRefused: true };
  return { tab: named ?? allowed[0], isRefused: false };
}
