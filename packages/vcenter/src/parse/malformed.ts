import { answerParsers } from "@hyperlens/hyper-http";

/**
 * Parses a vCenter answer with a schema, or throws a `malformed` HyperError naming the call and the
 * first wrong field, so an administrator (or a bug report) can tell which endpoint misbehaved.
 */
export const { parseWith } = answerParsers("vCenter");
