// What every form reads from a ValidationError answer: the message and the problem per field.
import { graphql, type ResultOf } from "./graphql.ts";

export const ValidationErrorFields = graphql(`
  fragment ValidationErrorFields on ValidationError {
    message
    field
    problems {
      field
      message
    }
  }
`);

/** One problem the server found in a form's input. */
export type FieldProblem = ResultOf<typeof ValidationErrorFields>["problems"][number];

/** A mutation's answer as urql gives it, for a result that may be a ValidationError. */
export interface AnswerWithProblems {
  data?: {
    result?: {
      __typename: string;
      message?: string;
      field?: string | null;
      problems?: readonly FieldProblem[];
    } | null;
  } | null;
  error?: { message: string };
}

/**
 * The problems a save answered, or undefined when it succeeded: a transport error is one problem
 * for the whole form; a ValidationError without a list is its one message, on its field.
 */
export function problemsOfAnswer(answer: AnswerWithProblems): readonly FieldProblem[] | undefined {
  if (answer.error) return [{ field: null, message: answer.error.message }];
  const result = answer.data?.result;
  if (result?.__typename !== "ValidationError") return undefined;
  return result.problems?.length
    ? result.problems
    : [{ field: result.field ?? null, message: result.message ?? "" }];
}

/**
 * The server's problems by the form's field names: `input.url` and `url` both land on `url`; a
 * problem with no field, or with one the form does not show, lands on `form` so it is still read.
 */
export function problemsByField(
  problems: readonly FieldProblem[],
  shownFields?: readonly string[],
): Record<string, string[]> {
  const byField: Record<string, string[]> = {};
  for (const problem of problems) {
    const named = (problem.field ?? "").split(".").pop() || "form";
    const field = !shownFields || shownFields.includes(named) ? named : "form";
    byField[field] = [...(byField[field] ?? []), problem.message];
  }
  return byField;
}
