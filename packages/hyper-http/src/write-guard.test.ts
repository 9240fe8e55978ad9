import { describe, expect, it } from "vitest";
import { type AllowedWrite, checkReadOnly } from "./write-guard.ts";

const director: AllowedWrite[] = [
  { method: "POST", pathPattern: /\/cloudapi\/1\.0\.0\/sessions(\/provider)?/ },
  { method: "DELETE", pathPattern: /\/cloudapi\/1\.0\.0\/sessions\/[^/]+/g },
];

describe("read-only guard", () => {
  it("always lets GET through", () => {
    expect(checkReadOnly("GET", "/anything", "read", [])).toBeNull();
    expect(checkReadOnly("get", "/anything", "read", [])).toBeNull();
  });

  it("lets a declared login/logout through only when marked as such", () => {
    expect(checkReadOnly("POST", "/cloudapi/1.0.0/sessions", "login", director)).toBeNull();
    expect(
      checkReadOnly("POST", "/cloudapi/1.0.0/sessions/provider", "login", director),
    ).toBeNull();
    expect(
      checkReadOnly("DELETE", "/cloudapi/1.0.0/sessions/urn:vcloud:session:1", "logout", director),
    ).toBeNull();
    expect(checkReadOnly("POST", "/cloudapi/1.0.0/sessions", "read", director)).toMatch(
      /not a read/,
    );
  });

  it("matches the whole path, so a declared prefix does not open what lies below or around it", () => {
    expect(checkReadOnly("POST", "/cloudapi/1.0.0/sessions/x/y", "login", director)).not.toBeNull();
    expect(
      checkReadOnly("POST", "/api/x/cloudapi/1.0.0/sessions", "login", director),
    ).not.toBeNull();
    expect(
      checkReadOnly("DELETE", "/cloudapi/1.0.0/sessions/a/b", "logout", director),
    ).not.toBeNull();
  });

  it("is not fooled by a global regexp's lastIndex across calls", () => {
    for (let i = 0; i < 3; i++) {
      expect(
        checkReadOnly("DELETE", "/cloudapi/1.0.0/sessions/abc", "logout", director),
      ).toBeNull();
    }
  });

  it("refuses every other method", () => {
    for (const method of ["PUT", "PATCH", "HEAD", "OPTIONS"]) {
      expect(checkReadOnly(method, "/cloudapi/1.0.0/sessions", "login", director)).not.toBeNull();
    }
  });
});
