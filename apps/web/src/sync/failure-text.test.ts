import { RESULT_ERROR_CLASSES } from "@hyperlens/shared";
import { describe, expect, it } from "vitest";
import en from "../../../../locales/en.json";
import { failureText } from "./failure-text.ts";

describe("failureText", () => {
  it("says what to do about a secret no configured key opens, in the user's language", () => {
    const text = failureText(RESULT_ERROR_CLASSES.SECRET_UNREADABLE, "server text");
    expect(text).toBe(en.sync.failure.secret_unreadable);
    expect(text).toContain("HYPERLENS_SECRET_KEY_PREVIOUS");
    expect(text).toContain("hyperlens secrets rotate");
  });

  it("shows any other class before the server's message", () => {
    expect(failureText("auth", "The password was refused.")).toBe(
      "auth: The password was refused.",
    );
    expect(failureText(null, "Something failed.")).toBe("Something failed.");
  });
});
