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
