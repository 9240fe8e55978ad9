// Text the database cannot store: PostgreSQL refuses U+0000, and Prisma's query engine refuses a
// lone UTF-16 surrogate ("\ud800" is valid JSON, not valid Unicode). Either one anywhere in the input
// reached the database as an error answered with INTERNAL_SERVER_ERROR. Both are refused up front,
// for every operation, so a new field cannot forget the check.
import { type DocumentNode, Kind, visit } from "graphql";
import type { Plugin } from "graphql-yoga";
import { ERROR_CODES, HyperlensError } from "../errors.ts";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isUnstorable = (text: string) => text.includes("\u0000") || LONE_SURROGATE.test(text);

/**
 * True when a string, or any key or string inside the value, holds a NUL or a lone surrogate.
 * Iterative: inputs may nest deeply.
 */
export function containsUnstorableText(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      if (isUnstorable(item)) return true;
    } else if (Array.isArray(item)) {
      pending.push(...item);
    } else if (item !== null && typeof item === "object") {
      for (const [key, inner] of Object.entries(item)) {
        if (isUnstorable(key)) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

function documentContainsUnstorableText(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.STRING]: (node) => {
      if (isUnstorable(node.value)) found = true;
    },
  });
  return found;
}

/** Refuses, as BAD_USER_INPUT, an operation whose variables or string literals hold unstorable text. */
export function useRefuseUnstorableText(): Plugin {
  return {
    onExecute: ({ args, setResultAndStopExecution }) => {
      // TRAP: issue 8 — without this, a NUL or lone surrogate in any text input is INTERNAL_SERVER_ERROR.
      if (
        containsUnstorableText(args.variableValues) ||
        documentContainsUnstorableText(args.document)
      ) {
        setResultAndStopExecution({
          errors: [
            new HyperlensError(
              "Text cannot contain the NUL character (U+0000) or a lone UTF-16 surrogate.",
              ERROR_CODES.BAD_USER_INPUT,
            ),
          ],
        });
      }
    },
  };
}
