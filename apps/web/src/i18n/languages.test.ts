import { describe, expect, it } from "vitest";
import { directionOf, LANGUAGES, pickLanguage } from "./languages.ts";

describe("languages", () => {
  it("are fourteen", () => {
    expect(LANGUAGES).toHaveLength(14);
  });

  it("match a browser preference exactly, then by base language, else English", () => {
    expect(pickLanguage(["zh-CN"])).toBe("zh-CN");
    expect(pickLanguage(["pt-PT", "en"])).toBe("pt-BR");
    expect(pickLanguage(["de-AT"])).toBe("de");
    expect(pickLanguage(["tlh", "fi"])).toBe("en");
  });

  it("lay Arabic out right to left and the rest left to right", () => {
    expect(directionOf("ar")).toBe("rtl");
    expect(directionOf("ja")).toBe("ltr");
  });
});
