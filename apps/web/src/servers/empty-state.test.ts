import { describe, expect, it } from "vitest";
import en from "../../../../locales/en.json";
import { t } from "../i18n/i18n.ts";
import { emptyState } from "./empty-state.ts";

const active = [{ isActive: true }];
const inactive = [{ isActive: false }];
const admin = ["VIEW_INVENTORY", "RUN_SYNC", "MANAGE_PROXMOX"] as const;
const syncer = ["VIEW_INVENTORY", "RUN_SYNC"] as const;
const viewer = ["VIEW_INVENTORY"] as const;
const idle = { isSyncing: false };
const text = (state: ReturnType<typeof emptyState>) => t(state.body, { button: "Sync" });

// docs/behaviour.md §9.3: the empty page says what this viewer can actually do next.
describe("the empty Servers page", () => {
  it("says press Sync only when Sync is there and enabled", () => {
    const state = emptyState({ connections: active, capabilities: syncer, ...idle });
    expect(state.body).toBe("servers.empty.body");
    expect(text(state)).toMatch(/^Press “Sync”/);
  });

  it("tells a viewer without RUN_SYNC that it cannot sync, and whom to ask", () => {
    const state = emptyState({ connections: active, capabilities: viewer, ...idle });
    expect(text(state)).not.toMatch(/Press/);
    expect(text(state)).toContain("cannot start a sync");
    expect(text(state)).toContain("administrator");
    expect(state.canAddConnection).toBe(false);
  });

  it("explains why Sync is disabled: a sync running, or every connection inactive", () => {
    expect(emptyState({ connections: active, capabilities: syncer, isSyncing: true }).body).toBe(
      "servers.empty.syncing",
    );
    const off = emptyState({ connections: inactive, capabilities: admin, ...idle });
    expect(text(off)).toContain("inactive");
    expect(text(off)).not.toMatch(/Press/);
    const offViewer = emptyState({ connections: inactive, capabilities: syncer, ...idle });
    expect(text(offViewer)).toContain("Ask an administrator");
  });

  it("offers to add a connection only to those who may, and tells the others to ask", () => {
    const manager = emptyState({ connections: [], capabilities: admin, ...idle });
    expect(manager).toEqual({ body: "servers.empty.addFirst", canAddConnection: true });
    const other = emptyState({ connections: [], capabilities: syncer, ...idle });
    expect(other).toEqual({ body: "servers.empty.askForConnection", canAddConnection: false });
    expect(text(other)).toBe(en.servers.empty.askForConnection);
  });
});
