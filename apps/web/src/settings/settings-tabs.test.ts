import { describe, expect, it } from "vitest";
import { settingsTabs, tabOfPath, tabPath } from "./settings-tabs.ts";

const ALL_SOURCES = ["VIEW_INVENTORY", "MANAGE_PROXMOX", "MANAGE_VCD", "MANAGE_VCENTER"] as const;

describe("settingsTabs (docs/behaviour.md §9.4, §9.41)", () => {
  it("gives administrators the Address rules tab after the sources", () => {
    expect(settingsTabs({ isAdmin: true, capabilities: [...ALL_SOURCES] })).toEqual([
      "PROXMOX",
      "VCD",
      "VCENTER",
      "ADDRESS_RULES",
    ]);
  });

  it("gives no one else the Address rules tab, whatever they manage", () => {
    expect(
      settingsTabs({ isAdmin: false, capabilities: [...ALL_SOURCES, "MANAGE_USERS"] }),
    ).not.toContain("ADDRESS_RULES");
    expect(settingsTabs({ isAdmin: false, capabilities: ["MANAGE_VCD"] })).toEqual(["VCD"]);
  });
});

describe("tabOfPath", () => {
  const admin = settingsTabs({ isAdmin: true, capabilities: [...ALL_SOURCES] });
  const viewer = settingsTabs({ isAdmin: false, capabilities: ["VIEW_INVENTORY"] });

  it("opens the tab a path names, and the first one for Settings alone", () => {
    expect(tabOfPath(tabPath("ADDRESS_RULES"), admin)).toEqual({
      tab: "ADDRESS_RULES",
      isRefused: false,
    });
    expect(tabOfPath("/settings/director", viewer)).toEqual({ tab: "VCD", isRefused: false });
    expect(tabOfPath("/settings", viewer)).toEqual({ tab: "PROXMOX", isRefused: false });
    expect(tabOfPath("/settings/nonsense", viewer)).toEqual({ tab: "PROXMOX", isRefused: false });
  });

  it("refuses a tab named but not allowed rather than showing another", () => {
    expect(tabOfPath("/settings/address-rules", viewer)).toEqual({
      tab: undefined,
      isRefused: true,
    });
    const vcdOnly = settingsTabs({ isAdmin: false, capabilities: ["MANAGE_VCD"] });
    expect(tabOfPath("/settings/proxmox", vcdOnly).isRefused).toBe(true);
  });
});
