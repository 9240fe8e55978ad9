// The registered-vCenters parser. No recorded answer exists in fixtures/vcd; the body follows the
// CloudAPI `VirtualCenter` model of Director 10.x (fields the parser ignores included).
import { isHyperError } from "@hyperlens/hyper-http";
import { describe, expect, it } from "vitest";
import { parseVirtualCenterPage } from "./virtual-centers.ts";

const vc01 = {
  vcId: "urn:vcloud:vimserver:0B1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D",
  name: "vc01",
  description: "",
  username: "administrator@vsphere.local",
  password: null,
  url: "https://vc01.example.com:443/sdk",
  isEnabled: true,
  vsphereWebClientServerUrl: null,
  hasProxy: false,
  rootFolder: null,
  vcNoneNetwork: null,
  tenantVisibleName: "vc01",
  isConnected: true,
  mode: "IAAS",
  listenerState: "CONNECTED",
  clusterHealthStatus: "GREEN",
  vcVersion: "8.0.2",
  buildNumber: "22617221",
  uuid: "6d2c5b1e-9f3a-4c8d-b7e6-0a1f2e3d4c5b",
  nsxVManager: null,
  proxyConfigurationUrn: null,
};

const pageOf = (values: unknown[]) => ({
  resultTotal: values.length,
  pageCount: 1,
  page: 1,
  pageSize: 25,
  associations: null,
  values,
});

describe("parseVirtualCenterPage", () => {
  it("reads the vimServer UUID (lower-case), address, state, version and instance UUID", () => {
    const page = parseVirtualCenterPage(pageOf([vc01]), "v");
    expect(page).toMatchObject({ page: 1, pageCount: 1, pageSize: 25, resultTotal: 1 });
    expect(page.virtualCenters).toEqual([
      {
        id: "0b1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
        name: "vc01",
        url: "https://vc01.example.com:443/sdk",
        isEnabled: true,
        isConnected: true,
        version: "8.0.2",
        instanceUuid: "6d2c5b1e-9f3a-4c8d-b7e6-0a1f2e3d4c5b",
      },
    ]);
  });

  it("reads a wrongly typed field as unknown and leaves out an entry without vcId", () => {
    const odd = { ...vc01, url: 42, isConnected: "yes", vcVersion: null, newField: { a: 1 } };
    const page = parseVirtualCenterPage(pageOf([odd, { name: "no id" }, "junk"]), "v");
    expect(page.virtualCenters).toHaveLength(1);
    expect(page.virtualCenters[0]).toMatchObject({ url: null, isConnected: null, version: null });
  });

  it("fails a page without a values list", () => {
    expect(() => parseVirtualCenterPage({ resultTotal: 1 }, "GET v")).toThrow(
      expect.objectContaining({ errorClass: "malformed" }),
    );
    try {
      parseVirtualCenterPage("<html>", "GET v");
    } catch (error) {
      expect(isHyperError(error)).toBe(true);
    }
  });
});
