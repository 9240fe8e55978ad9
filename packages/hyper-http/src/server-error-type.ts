// The machine-readable kind of an error answer, for a caller whose rule depends on it: vSphere
// Automation sends the same refusal as 400 or 500 depending on the runtime, but always names it
// in `error_type` (UNABLE_TO_ALLOCATE_RESOURCE for the VM list cap).

/** Longest error type kept; a real one is a short constant. */
const MAX_ERROR_TYPE = 100;
const ERROR_TYPE = /^[A-Za-z][A-Za-z0-9_.]*$/;

/**
 * The `error_type` of a vSphere Automation error body (`{"error_type": "…", "messages": […]}`),
 * upper-cased; undefined for any other body or a value that is not a short identifier.
 */
export function extractServerErrorType(bodyText: string): string | undefined {
  const body = bodyText.trim();
  if (!body.startsWith("{")) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const type = (parsed as { error_type?: unknown }).error_type;
  if (typeof type !== "string" || type.length > MAX_ERROR_TYPE || !ERROR_TYPE.test(type)) {
    return undefined;
  }
  return type.toUpperCase();
}
