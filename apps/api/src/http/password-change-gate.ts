// A session whose password an administrator reset may do nothing until it chooses a new one
// (docs/behaviour.md §12): one gate over every operation, over HTTP, SSE and WebSocket alike,
// so no field can forget the rule. It reads the operation's root fields, fragments included.

import {
  type DocumentNode,
  getOperationAST,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Viewer } from "../auth/viewer.ts";
import { PasswordChangeRequiredError } from "../errors.ts";

/** What such a session may still ask: who it is, to change its password, to leave. */
export const ALLOWED_BEFORE_PASSWORD_CHANGE: ReadonlySet<string> = new Set([
  "viewer",
  "changeOwnPassword",
  "signOut",
  // Public answers the web app asks before anything else; they reveal nothing of the account.
  "isSetupRequired",
  "__typename",
]);

function rootFieldNames(document: DocumentNode, operation: OperationDefinitionNode): string[] {
  const fragments = new Map(
    document.definitions.flatMap((d) =>
      d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [],
    ),
  );
  const names: string[] = [];
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) names.push(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return names;
}

/** True when `viewer` must change its password and the operation asks for more than allowed. */
function isHeldBack(
  viewer: Viewer | null | undefined,
  document: DocumentNode,
  operationName: string | null | undefined,
): boolean {
  if (!viewer?.mustChangePassword) return false;
  const operation = getOperationAST(document, operationName);
  // An unclear operation is refused by graphql-js itself; hold it back all the same.
  if (!operation) return true;
  return rootFieldNames(document, operation).some((n) => !ALLOWED_BEFORE_PASSWORD_CHANGE.has(n));
}

/** Refuses everything but {@link ALLOWED_BEFORE_PASSWORD_CHANGE} with PASSWORD_CHANGE_REQUIRED. */
export function usePasswordChangeGate(): Plugin {
  const viewerOf = (contextValue: unknown) => (contextValue as { viewer?: Viewer | null }).viewer;
  return {
    onExecute: ({ args, setResultAndStopExecution }) => {
      // TRAP: docs/behaviour.md §12 — without it a reset password's old holder keeps working.
      if (isHeldBack(viewerOf(args.contextValue), args.document, args.operationName))
        setResultAndStopExecution({ errors: [new PasswordChangeRequiredError()] });
    },
    onSubscribe: ({ args, setResultAndStopExecution }) => {
      if (isHeldBack(viewerOf(args.contextValue), args.document, args.operationName))
        setResultAndStopExecution({ errors: [new PasswordChangeRequiredError()] });
    },
  };
}
