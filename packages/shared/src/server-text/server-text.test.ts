import { describe, expect, it } from "vitest";
import { englishText, localizedMessage, serverText } from "./server-text.ts";

describe("englishText", () => {
  it("renders a code's English with plurals and selects", () => {
    expect(englishText(serverText("syncListUnreported", { list: "pve2/lxc", kept: 1 }))).toBe(
      "List pve2/lxc was not reported; its 1 guest was kept.",
    );
    expect(
      englishText(serverText("connectionTestProxmox", { version: "unknown", nodes: 2, online: 1 })),
    ).toBe("Connected: 2 nodes, 1 online.");
  });

  it("renders a light poll's summary and a failure's frame as the messages always read", () => {
    const poll = { listed: 1, read: 1, added: 1, changed: 0, restored: 0, removed: 0 };
    expect(englishText(serverText("lightPollSummary", poll))).toBe(
      "Light poll: 1 guest listed, 1 read: 1 added, 0 changed, 0 restored, 0 removed.",
    );
    const redirect = { source: "vCenter", call: "GET /api", http: "HTTP 302" };
    expect(englishText(serverText("hyperRedirectRefused", { ...redirect, target: "none" }))).toBe(
      "The vCenter server answered GET /api with a redirect (HTTP 302), which Hyperlens does not follow; check the address",
    );
    const unreachable = { source: "Proxmox", reason: "connection refused by pve1:8006" };
    expect(englishText(serverText("hyperUnreachable", { ...unreachable, attempts: 1 }))).toBe(
      "Could not reach the Proxmox server: connection refused by pve1:8006",
    );
    expect(englishText(serverText("hyperUnreachable", { ...unreachable, attempts: 3 }))).toBe(
      "Could not reach the Proxmox server: connection refused by pve1:8006 (3 attempts)",
    );
  });

  it("renders a connector's own failures, a removal's reason and the cool-down as they always read", () => {
    expect(englishText(serverText("proxmoxTokenIdShape", { tokenId: "root@pam" }))).toBe(
      'The Proxmox token id "root@pam" is not of the form user@realm!tokenname',
    );
    expect(englishText(serverText("vcenterLoginHint", {}))).toBe(
      "vCenter user names include the identity source, e.g. hyperlens@vsphere.local or DOMAIN\\user",
    );
    expect(englishText(serverText("vcdLoginHintTenant", {}))).toBe(
      "Director user names are user@org, with the organization's name (provider administrators: user@System)",
    );
    const versions = { asked: "38.0", minApi: "37", maxApi: "39" };
    expect(englishText(serverText("vcdNoApiVersion", { ...versions, offered: "none" }))).toBe(
      "The Cloud Director server does not offer API 38.0 nor any version from 37.0 to 39.x (it offers: none); Hyperlens needs Cloud Director 10.4 to 10.6",
    );
    expect(englishText(serverText("vcdHrefRefused", { why: "not_absolute", href: "x" }))).toBe(
      "The Cloud Director server sent a link Hyperlens will not follow (not an absolute URL): x",
    );
    expect(englishText(serverText("vcdHrefRefused", { why: "outside_api", href: "x" }))).toBe(
      "The Cloud Director server sent a link Hyperlens will not follow (not below /api/): x",
    );
    expect(englishText(serverText("removalNotInList", { list: "pve1/qemu" }))).toBe(
      "not in list pve1/qemu",
    );
    expect(
      englishText(
        serverText("manualSyncCooldown", { seconds: 1234, at: "2026-01-01T00:01:00.000Z" }),
      ),
    ).toBe(
      "Synced 1234 s ago; the next manual sync of this connection is possible at 2026-01-01T00:01:00.000Z. This is the last run.",
    );
  });

  it("renders the door's refusals and unusable answers as they always read", () => {
    const nodes = { source: "Proxmox", call: "GET /api2/json/nodes", http: "HTTP 200" };
    expect(englishText(serverText("hyperAnswerHtml", { ...nodes, length: 12345 }))).toBe(
      "The Proxmox server's answer to GET /api2/json/nodes is an HTML page, not JSON (HTTP 200, 12345 characters); is a proxy or a login page in front of the server?",
    );
    expect(englishText(serverText("hyperSendFailed", { ...nodes, code: "none" }))).toBe(
      "Could not send GET /api2/json/nodes to the Proxmox server",
    );
    expect(englishText(serverText("hyperSendFailed", { ...nodes, code: "ERR_INVALID_CHAR" }))).toBe(
      "Could not send GET /api2/json/nodes to the Proxmox server (ERR_INVALID_CHAR)",
    );
    expect(englishText(serverText("netDeadline", { hostPort: "pve1:8006", seconds: 1200 }))).toBe(
      "no complete answer from pve1:8006 within 1200 s",
    );
  });

  it("renders nested texts first", () => {
    const text = serverText("addressLoopback", {
      label: serverText("addressLabelNic", { nic: "net0" }),
    });
    expect(englishText(text)).toBe("NIC net0: loopback address");
  });
});

describe("localizedMessage", () => {
  it("carries the code, the parameters and the English, nested texts alike", () => {
    const text = serverText("addressLoopback", { label: serverText("addressLabelNoMac", {}) });
    expect(localizedMessage(text)).toEqual({
      code: "addressLoopback",
      params: {
        label: { code: "addressLabelNoMac", params: {}, message: "interface without a MAC" },
      },
      message: "interface without a MAC: loopback address",
    });
  });
});
