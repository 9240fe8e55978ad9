import { describe, expect, it } from "vitest";
import { problemsByField, problemsOfAnswer } from "./validation-error.ts";

describe("problemsByField", () => {
  it("groups the server's problems under the form's field names", () => {
    expect(
      problemsByField([
        { field: "url", message: "not https" },
        { field: "input.username", message: "no colon" },
        { field: null, message: "general" },
      ]),
    ).toEqual({ url: ["not https"], username: ["no colon"], form: ["general"] });
  });

  it("puts a problem with a field the form does not show under the form, so it is still read", () => {
    expect(
      problemsByField(
        [
          { field: "url", message: "not https" },
          { field: "connectionIds", message: "gone" },
        ],
        ["url", "description"],
      ),
    ).toEqual({ url: ["not https"], form: ["gone"] });
  });
});

describe("problemsOfAnswer", () => {
  it("is nothing for a success", () => {
    expect(problemsOfAnswer({ data: { result: { __typename: "Success" } } })).toBeUndefined();
  });

  it("is the list of a ValidationError, or its one message on its field", () => {
    const problems = [{ field: "url", message: "not https" }];
    expect(
      problemsOfAnswer({
        data: { result: { __typename: "ValidationError", message: "x", problems } },
      }),
    ).toEqual(problems);
    expect(
      problemsOfAnswer({
        data: {
          result: { __typename: "ValidationError", message: "taken", field: "name", problems: [] },
        },
      }),
    ).toEqual([{ field: "name", message: "taken" }]);
  });

  it("is one problem for the whole form when the request failed", () => {
    expect(problemsOfAnswer({ error: { message: "offline" } })).toEqual([
      { field: null, message: "offline" },
    ]);
  });
});
