import { describe, expect, it } from "vitest";
import { visiblePages } from "./nav.tsx";

describe("visiblePages", () => {
  it("shows every page to an administrator", () => {
    expect(
      visiblePages({
        username: "a",
        isAdmin: true,
        capabilities: [
          "VIEW_INVENTORY",
          "MANAGE_PROXMOX",
          "MANAGE_VCD",
          "MANAGE_VCENTER",
          "MANAGE_USERS",
        ],
      }),
    ).toEqual(["servers", "settings", "tokens", "users", "groups", "help"]);
  });

  it("hides Users from a viewer and Servers from a Proxmox-only manager", () => {
    expect(
      visiblePages({ username: "v", isAdmin: false, capabilities: ["VIEW_INVENTORY"] }),
    ).toEqual(["servers", "settings", "tokens", "help"]);
    expect(
      visiblePages({ username: "p", isAdmin: false, capabilities: ["MANAGE_PROXMOX"] }),
    ).toEqual(["settings", "tokens", "help"]);
  });
});
