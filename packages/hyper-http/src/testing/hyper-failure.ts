import { type HyperError, isHyperError } from "../errors.ts";

/** The HyperError a call (or a promise) fails with; anything else, or success, fails the test. */
export async function hyperFailure(run: Promise<unknown> | (() => unknown)): Promise<HyperError> {
  try {
    await (typeof run === "function" ? run() : run);
  } catch (error) {
    if (isHyperError(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail with a HyperError");
}
