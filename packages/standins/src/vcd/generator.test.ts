import { describe, expect, it } from "vitest";
import { vcdEdgeGateway } from "./builders.ts";
import { demoDirector } from "./demo-director.ts";
import { generateDirector } from "./generator.ts";

describe("generateDirector", () => {
  it("the same seed gives the same inventory, another seed a different one", () => {
    const a = generateDirector({ vms: 50, seed: 5 });
    const b = generateDirector({ vms: 50, seed: 5 });
    const c = generateDirector({ vms: 50, seed: 6 });
    expect(a.vms).toEqual(b.vms);
    expect(a.vms.map((vm) => vm.id)).not.toEqual(c.vms.map((vm) => vm.id));
  });

  it("builds 5,000 VMs with unique IDs and MACs, every VM placed in an org", () => {
    const started = performance.now();
    const model = generateDirector({ orgs: 5, vdcsPerOrg: 3, vms: 5000, edgeGateways: 20 });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(model.vms).toHaveLength(5000);
    expect(new Set(model.vms.map((vm) => vm.id)).size).toBe(5000);
    const macs = model.vms.flatMap((vm) => vm.nics.map((nic) => nic.mac));
    expect(new Set(macs).size).toBe(macs.length);
    expect(model.vms.every((vm) => model.placement(vm) !== undefined)).toBe(true);
    expect(model.edgeGateways.some((e) => e.owner.kind === "vdcGroup")).toBe(true);
    expect(model.vms.some((vm) => model.placement(vm)?.vapp.template)).toBe(true);
  });
});

describe("the model", () => {
  it("refuses duplicate IDs and dangling references", () => {
    const model = demoDirector();
    const [vm] = model.vms;
    if (!vm) throw new Error("demo has VMs");
    expect(() => model.addVm({ ...vm })).toThrow(/duplicate vm/);
    expect(() => model.addVm({ ...vm, id: "x", vappId: "missing" })).toThrow(/unknown vApp/);
    expect(() =>
      model.addEdgeGateway(vcdEdgeGateway({ name: "e", owner: { kind: "vdcGroup", id: "z" } })),
    ).toThrow(/unknown vdcGroup/);
  });
});
