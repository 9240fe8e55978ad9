import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createHyperClient, type HyperClientOptions } from "./client.ts";
import { checkTargetUrl, refusedTargetKind } from "./target-address.ts";
import { hyperFailure } from "./testing/hyper-failure.ts";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0)) await close();
});

/** A plain TCP listener on loopback that counts the connections it sees (and hangs up). */
async function loopbackListener(): Promise<{ port: number; connections: () => number }> {
  let seen = 0;
  const server: Server = createServer((socket) => {
    seen++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { port: address.port, connections: () => seen };
}

function door(baseUrl: string, overrides: Partial<HyperClientOptions> = {}) {
  const made = createHyperClient({
    connectionId: "ssrf",
    source: "Proxmox",
    baseUrl,
    retry: { attempts: 1 },
    timeouts: { connectMs: 2000, headersMs: 2000, bodyMs: 2000, deadlineMs: 5000 },
    ...overrides,
  });
  cleanup.push(() => made.close());
  return made;
}

describe("the outbound address policy", () => {
  it("names loopback, link-local and unspecified addresses in every spelling, and leaves private ranges alone", () => {
    for (const address of [
      "127.0.0.1",
      "127.8.9.10",
      "::1",
      "[::1]",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::127.0.0.1",
    ]) {
      expect(refusedTargetKind(address), address).toBe("loopback");
    }
    for (const address of ["169.254.169.254", "fe80::1", "febf::1", "::ffff:169.254.169.254"]) {
      expect(refusedTargetKind(address), address).toBe("link-local");
    }
    for (const address of ["0.0.0.0", "::", "0.1.2.3"]) {
      expect(refusedTargetKind(address), address).toBe("unspecified");
    }
    for (const address of [
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.10",
      "fd00::5",
      "8.8.8.8",
      "pve.example",
    ]) {
      expect(refusedTargetKind(address), address).toBeUndefined();
    }
  });

  it("refuses at save time after resolving the name, and allows everything when the lab setting is on", async () => {
    const refuse = { allowLoopbackTargets: false };
    expect(await checkTargetUrl("https://localhost:8006", refuse)).toMatch(
      /localhost \(resolves to .*\) is a loopback address/,
    );
    expect(await checkTargetUrl("https://2130706433/", refuse)).toMatch(
      /127\.0\.0\.1 is a loopback address/,
    );
    expect(await checkTargetUrl("https://10.1.2.3:8006", refuse)).toBeNull();
    expect(
      await checkTargetUrl("https://localhost:8006", { allowLoopbackTargets: true }),
    ).toBeNull();
  });

  it("refuses to connect to a loopback address, by literal or by name, and the loopback listener sees no connection", async () => {
    const listener = await loopbackListener();
    for (const host of ["127.0.0.1", "localhost"]) {
      const error = await hyperFailure(
        door(`https://${host}:${listener.port}`).request({
          method: "GET",
          path: "/api2/json/version",
        }),
      );
      expect(error.errorClass, host).toBe("config");
      expect(error.message, host).toMatch(
        /Refused to connect to the Proxmox server: .* loopback address/,
      );
      // docs/behaviour.md §11.4: our frame as a code, the refusal's words inside.
      expect(error.text, host).toMatchObject({ code: "hyperRefusedToConnect" });
    }
    expect(listener.connections()).toBe(0);
  });

  it("connects to a loopback address when the client is told to allow loopback targets", async () => {
    const listener = await loopbackListener();
    const error = await hyperFailure(
      door(`https://127.0.0.1:${listener.port}`, { allowLoopbackTargets: true }).request({
        method: "GET",
        path: "/api2/json/version",
      }),
    );
    expect(error.errorClass).not.toBe("config");
    expect(listener.connections()).toBe(1);
  });
});
