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
