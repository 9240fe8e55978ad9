import { answerParsers } from "@hyperlens/hyper-http";

/**
 * `malformed(call, detail)`: the `malformed` HyperError for a Director answer we could not use,
 * naming the call and what was wrong so an administrator (or a bug report) can tell which endpoint
 * misbehaved; `parseWith(schema, value, call, root)` throws it naming the first wrong field.
 */
export const { malformed, parseWith } = answerParsers("Cloud Director");
