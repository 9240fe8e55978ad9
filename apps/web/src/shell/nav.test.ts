import { describe, expect, it } from "vitest";
import { visiblePages } from "./nav.tsx";

describe("visiblePages", () => {
  it("shows every page to an administrator", () => {
    expect(
      visiblePages({
        username: "a",
        isAdmin: true,
        mustChangePassword: false,
        capabilities: [
          "VIEW_INVENTORY",
          "MANAGE_PROXMOX",
          "MANAGE_VCD",
          "MANAGE_VCENTER",
          "MANAGE_USERS",
        ],
      }),
    ).toEqual([
      "servers",
      "integrations",
      "settings",
      "tokens",
      "users",
      "groups",
      "webhooks",
      "sessions",
      "password",
      "help",
    ]);
  });

  it("hides Users from a viewer and Servers from a Proxmox-only manager", () => {
    expect(
      visiblePages({
        username: "v",
        isAdmin: false,
        mustChangePassword: false,
        capabilities: ["VIEW_INVENTORY"],
      }),
    ).toEqual(["servers", "integrations", "settings", "tokens", "sessions", "password", "help"]);
    expect(
      visiblePages({
        username: "p",
        isAdmin: false,
        mustChangePassword: false,
        capabilities: ["MANAGE_PROXMOX"],
      }),
    ).toEqual(["settings", "tokens", "sessions", "password", "help"]);
  });

  it("shows Webhooks to administrators only, not to a user manager", () => {
    const manager = visiblePages({
      username: "m",
      isAdmin: false,
      mustChangePassword: false,
      capabilities: ["VIEW_INVENTORY", "MANAGE_USERS"],
    });
    expect(manager).toContain("users");
    expect(manager).not.toContain("webhooks");
  });
});
