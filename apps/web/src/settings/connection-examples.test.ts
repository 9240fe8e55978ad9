import { describe, expect, it } from "vitest";
import { addressHint, connectionExample } from "./connection-examples.ts";

describe("the connection form's examples", () => {
  it("show each kind its own example address, in the hint and the placeholder", () => {
    expect(addressHint("PROXMOX")).toBe("https only, e.g. https://pve.example:8006");
    expect(addressHint("VCD")).toBe("https only, e.g. https://vcd.example.com");
    expect(addressHint("VCENTER")).toBe("https only, e.g. https://vcenter.example.com");
    expect(connectionExample("VCENTER").url).toBe("https://vcenter.example.com");
  });

  it("never offer a Proxmox address or user for a Director or vCenter connection", () => {
    for (const kind of ["VCD", "VCENTER"] as const) {
      expect(addressHint(kind)).not.toContain("pve");
      expect(connectionExample(kind).url).not.toContain("pve");
      expect(connectionExample(kind).username).not.toContain("@pve");
    }
  });
});
