import { describe, expect, it } from "vitest";
import { locationText } from "./location-text.ts";

const empty = {
  nodeName: null,
  clusterName: null,
  datacenterName: null,
  hostName: null,
  orgName: null,
  vdcName: null,
  vappName: null,
};

describe("locationText", () => {
  it("shows node and cluster for Proxmox", () => {
    expect(locationText({ ...empty, nodeName: "pve1", clusterName: "pve-prod" })).toBe(
      "pve1 · pve-prod",
    );
  });
  it("shows org / VDC / vApp for Director, skipping what is unknown", () => {
    expect(locationText({ ...empty, vdcName: "acme-prod", vappName: "database" })).toBe(
      "acme-prod / database",
    );
  });
  it("shows datacenter / cluster / host for vCenter", () => {
    expect(
      locationText({ ...empty, datacenterName: "dc1", clusterName: "c1", hostName: "esx01" }),
    ).toBe("dc1 / c1 / esx01");
  });
  it("is empty when nothing is known", () => {
    expect(locationText(empty)).toBe("");
  });
});
