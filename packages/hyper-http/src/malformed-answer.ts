// One wording and one error for an answer a connector could not use, whichever source sent it: the
// call and the first wrong field, so an administrator (or a bug report) can tell which endpoint
// misbehaved.
import { serverText } from "@hyperlens/shared";
import { type HyperError, type SourceName, textError } from "./errors.ts";

/** One problem a schema found: where (field path) and what. */
export interface AnswerIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * What {@link AnswerParsers.parseWith} needs of a schema: zod's `safeParse` contract, so the
 * connectors' zod schemas fit and hyper-http itself needs no schema library.
 */
export interface AnswerSchema<T> {
  safeParse(
    value: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly AnswerIssue[] } };
}

/** A source's helpers for answers of an unexpected shape; see {@link answerParsers}. */
export interface AnswerParsers {
  /** A `malformed` HyperError for the answer to `call`, with what was wrong in `detail`. */
  malformed(call: string, detail: string): HyperError;
  /**
   * Parses `value` with `schema`, or throws {@link AnswerParsers.malformed} naming the first wrong
   * field as a path from `root` (`data.0.vmid: …`).
   */
  parseWith<T>(schema: AnswerSchema<T>, value: unknown, call: string, root: string): T;
}

/** The {@link AnswerParsers} of one source, whose name starts every message. */
export function answerParsers(source: SourceName): AnswerParsers {
  const malformed = (call: string, detail: string) =>
    textError(serverText("hyperAnswerMalformed", { source, call, detail }), {
      errorClass: "malformed",
      source,
      path: call,
    });
  return {
    malformed,
    parseWith(schema, value, call, root) {
      const result = schema.safeParse(value);
      if (result.success) return result.data;
      const issue = result.error.issues[0];
      const where = [root, ...(issue?.path ?? []).map(String)].join(".");
      throw malformed(call, `${where}: ${issue?.message ?? "invalid"}`);
    },
  };
}
