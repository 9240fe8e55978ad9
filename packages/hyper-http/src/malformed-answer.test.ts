import { describe, expect, it } from "vitest";
import { type AnswerSchema, answerParsers } from "./malformed-answer.ts";

// A hand-written schema with zod's safeParse contract: hyper-http depends on no schema library.
const vmids: AnswerSchema<number[]> = {
  safeParse(value) {
    if (!Array.isArray(value)) {
      return { success: false, error: { issues: [{ path: [], message: "expected array" }] } };
    }
    const bad = value.findIndex((v) => typeof v !== "number");
    return bad === -1
      ? { success: true, data: value as number[] }
      : { success: false, error: { issues: [{ path: [bad], message: "expected number" }] } };
  },
};

describe("malformed answers", () => {
  it("name the source, the call and the detail, as a malformed error on that call", () => {
    const error = answerParsers("Proxmox").malformed("GET /nodes", "data: expected array");
    expect(error.message).toBe(
      "The Proxmox server's answer to GET /nodes has an unexpected shape (data: expected array)",
    );
    expect(error).toMatchObject({ errorClass: "malformed", source: "Proxmox", path: "GET /nodes" });
  });

  it("a value that fits is returned as parsed", () => {
    expect(
      answerParsers("vCenter").parseWith(vmids, [1, 2], "GET /api/vcenter/vm", "value"),
    ).toEqual([1, 2]);
  });

  it("a value that does not fit names the first wrong field from the root", () => {
    expect(() =>
      answerParsers("vCenter").parseWith(vmids, [1, "x"], "GET /api/vcenter/vm", "value"),
    ).toThrow(
      "The vCenter server's answer to GET /api/vcenter/vm has an unexpected shape (value.1: expected number)",
    );
    expect(() =>
      answerParsers("Cloud Director").parseWith(vmids, {}, "GET /api/query", "QueryResultRecords"),
    ).toThrow("(QueryResultRecords: expected array)");
  });

  it("a schema that reports no issue still gives a readable detail", () => {
    const silent: AnswerSchema<never> = {
      safeParse: () => ({ success: false, error: { issues: [] } }),
    };
    expect(() =>
      answerParsers("vCenter").parseWith(silent, 1, "GET /api/session", "value"),
    ).toThrow("(value: invalid)");
  });
});
