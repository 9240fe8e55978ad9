import { describe, expect, it } from "vitest";
import { serversPathWithGuest } from "./guest-drawer.ts";

describe("the drawer's guest in the address (docs/behaviour.md §9.48)", () => {
  it("adds vm= to the page's query and keeps every other parameter as it is", () => {
    expect(serversPathWithGuest("?q=web&cols=name,cpu&group=source", "Vm:1")).toBe(
      "/servers?q=web&cols=name%2Ccpu&group=source&vm=Vm%3A1",
    );
  });

  it("replaces the guest of an open drawer", () => {
    expect(serversPathWithGuest("?vm=A&q=web", "B")).toBe("/servers?vm=B&q=web");
  });

  it("takes vm= away on close, and nothing else", () => {
    expect(serversPathWithGuest("?q=web&vm=A&sort=CPU", undefined)).toBe("/servers?q=web&sort=CPU");
    expect(serversPathWithGuest("?vm=A", undefined)).toBe("/servers");
  });
});
