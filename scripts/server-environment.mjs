// The environment `npm start` (bootstrap.mjs) gives the server. Plain JavaScript: it runs before
// the dependencies (and tsx) are installed.

/**
 * `env` with demo stand-ins turned on unless told otherwise (HYPERLENS_DEMO=0), outside production
 * only: in production nothing is added, so the server starts with the operator's settings alone.
 * @param {Record<string, string | undefined>} env
 * @returns {Record<string, string | undefined>}
 */
export function serverEnvironment(env) {
  // TRAP: docs/operations.md "Production mode" — stand-ins would add made-up hypervisors to a real inventory.
  if (env.NODE_ENV === "production") return { ...env };
  return { HYPERLENS_DEMO: "1", ...env };
}
