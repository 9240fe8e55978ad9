// docs/behaviour.md §6.3: a recorded VM.Info maps to the names the vSphere Client shows — NIC and
// disk labels, the guest OS by name with its raw id kept — and to its BIOS and instance UUIDs.
import { describe, expect, it } from "vitest";
import { parseVmInfo } from "../parse/vm-info.ts";
import { parseVmList } from "../parse/vm-list.ts";
import { fixtureJson } from "../testing/fixtures.ts";
import { guestOsName } from "./guest-os-names.ts";
import { mapVcenterVm } from "./map-vm.ts";

const CALL = "GET /test";
const PLACE = { datacenterName: null, clusterName: null, hostName: null, host: null };

function recordedVm() {
  const [summary] = parseVmList(fixtureJson("vcenter_vm/GET.200.list.json"), CALL);
  if (!summary) throw new Error("no VM in the recorded list");
  const info = parseVmInfo(fixtureJson("vcenter_vm/GET.200.vm-1049.json"), CALL);
  return mapVcenterVm(summary, info, undefined, PLACE, { serverName: "vc.test" });
}

describe("a recorded vCenter VM", () => {
  it("names NICs and disks by their labels, keeping the device keys", () => {
    const vm = recordedVm();
    expect(vm.nics.map((n) => [n.key, n.label])).toEqual([["4000", "Network adapter 1"]]);
    expect(vm.disks.map((d) => [d.key, d.label])).toEqual([
      ["16000", "Hard disk 1"],
      ["16001", "Hard disk 2"],
    ]);
  });

  it("names the guest OS as the vSphere Client does and keeps the raw id", () => {
    expect(recordedVm()).toMatchObject({
      guestOs: "Red Hat Enterprise Linux 7 (64-bit)",
      guestOsCode: "RHEL_7_64",
    });
  });

  it("keeps the BIOS and instance UUIDs", () => {
    expect(recordedVm()).toMatchObject({
      biosUuid: "4231943a-a1b5-9d24-1e05-d447e9ff0396",
      instanceUuid: "5031e081-01a7-d61a-31f8-4bc54057ec60",
    });
  });
});

describe("guest OS names", () => {
  it("match the full name vCenter itself reports for the id", () => {
    const identity = fixtureJson("vcenter_vm_guest_identity/GET.200.json") as {
      name: string;
      full_name: { default_message: string };
    };
    expect(guestOsName(identity.name)).toBe(identity.full_name.default_message);
  });

  it("leave an id no table knows as it came", () => {
    expect(guestOsName("FUTURE_OS_64")).toBe("FUTURE_OS_64");
  });
});
