import { describe, expect, it } from "vitest";
import { DEMO_PROXMOX_NAME, DEMO_VCD_NAME, DEMO_VCENTER_NAME, startDemo } from "./demo.ts";
import { syncConnection } from "./syncs/coordinator.ts";
import { createTestServices } from "./testing/test-app.ts";

describe("demo mode", () => {
  it("points a demo connection at a running stand-in, again after a restart, and it syncs", async () => {
    const { db, services } = await createTestServices();
    try {
      await (await startDemo(services)).close();
      const demo = await startDemo(services);
      const connections = await db.prisma.connection.findMany({
        where: { name: DEMO_PROXMOX_NAME },
      });
      expect(connections).toHaveLength(1);
      const result = await syncConnection(services, connections[0]?.id ?? "", { trigger: "MANUAL" })
        .done;
      expect(result.counts.added).toBeGreaterThan(5);
      const director = await db.prisma.connection.findFirstOrThrow({
        where: { name: DEMO_VCD_NAME },
      });
      const directorResult = await syncConnection(services, director.id, { trigger: "MANUAL" })
        .done;
      expect(directorResult.outcome).toBe("SUCCESS");
      expect(directorResult.counts.added).toBeGreaterThan(3);
      const vcenter = await db.prisma.connection.findFirstOrThrow({
        where: { name: DEMO_VCENTER_NAME },
      });
      const vcenterResult = await syncConnection(services, vcenter.id, { trigger: "MANUAL" }).done;
      expect(vcenterResult.outcome).toBe("SUCCESS");
      expect(vcenterResult.counts.added).toBeGreaterThan(3);
      await demo.close();
    } finally {
      await db.close();
    }
  });
});
