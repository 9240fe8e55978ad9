// docs/behaviour.md §9.42: "Open in …" links into each source's own UI, and none when unsure.
import { describe, expect, it } from "vitest";
import { directorVmUrl, proxmoxGuestUrl, uiRoot, vsphereVmUrl } from "./source-links.ts";

const VC_UUID = "0f4ea4a0-7c38-4e0b-9a8e-1c5b1e7f2a10";
const VM_URN = "urn:vcloud:vm:6b2c1f0e-3a4d-4c5b-8e9f-0a1b2c3d4e5f";
const VDC_HREF = "https://vcd.example/api/vdc/11111111-2222-4333-8444-555555555555";

describe("uiRoot", () => {
  it("keeps a path, drops trailing slashes, credentials, query and fragment", () => {
    expect(uiRoot("https://pve.example:8006/")).toBe("https://pve.example:8006");
    expect(uiRoot("https://proxy.example/pve//")).toBe("https://proxy.example/pve");
    expect(uiRoot("https://u:p@pve.example:8006/?a=1#x")).toBe("https://pve.example:8006");
  });
  it("keeps an IPv6 host in brackets", () => {
    expect(uiRoot("https://[2001:db8::5]:8006")).toBe("https://[2001:db8::5]:8006");
  });
  it("answers null for http, another scheme, garbage or nothing", () => {
    expect(uiRoot("http://pve.example:8006")).toBeNull();
    expect(uiRoot("javascript:alert(1)")).toBeNull();
    expect(uiRoot("pve.example:8006")).toBeNull();
    expect(uiRoot("")).toBeNull();
    expect(uiRoot(null)).toBeNull();
  });
});

describe("proxmoxGuestUrl", () => {
  it("selects a QEMU VM or an LXC container in the resource tree", () => {
    expect(proxmoxGuestUrl("https://pve:8006", "qemu", 101)).toBe(
      "https://pve:8006/#v1:0:=qemu/101",
    );
    expect(proxmoxGuestUrl("https://pve:8006/", "lxc", 101)).toBe(
      "https://pve:8006/#v1:0:=lxc/101",
    );
    expect(proxmoxGuestUrl("https://[fd00::1]:8006", "qemu", 100)).toBe(
      "https://[fd00::1]:8006/#v1:0:=qemu/100",
    );
    expect(proxmoxGuestUrl("https://proxy.example/pve/", "qemu", 7)).toBe(
      "https://proxy.example/pve/#v1:0:=qemu/7",
    );
  });
  it("gives no link for an unknown guest type, a missing or odd VMID, or no https address", () => {
    expect(proxmoxGuestUrl("https://pve:8006", "openvz", 101)).toBeNull();
    expect(proxmoxGuestUrl("https://pve:8006", null, 101)).toBeNull();
    expect(proxmoxGuestUrl("https://pve:8006", "qemu", null)).toBeNull();
    expect(proxmoxGuestUrl("https://pve:8006", "qemu", 0)).toBeNull();
    expect(proxmoxGuestUrl("https://pve:8006", "qemu", 1.5)).toBeNull();
    expect(proxmoxGuestUrl("http://pve:8006", "qemu", 101)).toBeNull();
    expect(proxmoxGuestUrl(null, "qemu", 101)).toBeNull();
  });
});

describe("vsphereVmUrl", () => {
  it("opens the VM's summary when the vCenter's instance UUID is known", () => {
    expect(vsphereVmUrl("https://vc.example/", "vm-1051", VC_UUID.toUpperCase(), "db-01")).toBe(
      `https://vc.example/ui/app/vm;nav=h/urn:vmomi:VirtualMachine:vm-1051:${VC_UUID}/summary`,
    );
  });
  it("falls back to the client's search for the name, encoded, without that UUID", () => {
    expect(vsphereVmUrl("https://vc.example", "vm-1051", null, "db 01 & co/#?")).toBe(
      "https://vc.example/ui/#?extensionId=vsphere.core.search.domainView&query=db%2001%20%26%20co%2F%23%3F",
    );
    expect(vsphereVmUrl("https://[2001:db8::7]", "vm-1", "not-a-uuid", "web-01")).toBe(
      "https://[2001:db8::7]/ui/#?extensionId=vsphere.core.search.domainView&query=web-01",
    );
  });
  it("does not put an odd MoRef into the summary link", () => {
    expect(vsphereVmUrl("https://vc.example", "vm-1/../x", VC_UUID, "db-01")).toBe(
      "https://vc.example/ui/#?extensionId=vsphere.core.search.domainView&query=db-01",
    );
  });
  it("gives no link without a name to search for, or without an https address", () => {
    expect(vsphereVmUrl("https://vc.example", "vm-1", null, "")).toBeNull();
    expect(vsphereVmUrl("http://vc.example", "vm-1", VC_UUID, "db-01")).toBeNull();
  });
});

describe("directorVmUrl", () => {
  it("opens the VM in the tenant portal of its org and VDC", () => {
    expect(directorVmUrl("https://vcd.example/", "acme", VDC_HREF, VM_URN)).toBe(
      `https://vcd.example/tenant/acme/vdcs/11111111-2222-4333-8444-555555555555/vm/${VM_URN}/general`,
    );
  });
  it("encodes an org name and keeps a base path", () => {
    expect(directorVmUrl("https://cloud.example/vcd", "Acme Ltd/EU", VDC_HREF, VM_URN)).toBe(
      `https://cloud.example/vcd/tenant/Acme%20Ltd%2FEU/vdcs/11111111-2222-4333-8444-555555555555/vm/${VM_URN}/general`,
    );
  });
  it("gives no link when the org, the VDC or a proper VM URN is missing", () => {
    expect(directorVmUrl("https://vcd.example", null, VDC_HREF, VM_URN)).toBeNull();
    expect(directorVmUrl("https://vcd.example", "acme", null, VM_URN)).toBeNull();
    expect(
      directorVmUrl("https://vcd.example", "acme", "https://vcd.example/api/vdc/x", VM_URN),
    ).toBeNull();
    expect(
      directorVmUrl(
        "https://vcd.example",
        "acme",
        VDC_HREF,
        "urn:vcloud:vapp:6b2c1f0e-3a4d-4c5b-8e9f-0a1b2c3d4e5f",
      ),
    ).toBeNull();
    expect(directorVmUrl("http://vcd.example", "acme", VDC_HREF, VM_URN)).toBeNull();
  });
});
