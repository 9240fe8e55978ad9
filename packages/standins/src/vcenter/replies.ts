import type { StandinReply } from "../http/reply.ts";

/** vSphere's error types and the HTTP status each is sent with. */
export const ERROR_STATUS = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  UNAUTHORIZED: 403,
  NOT_FOUND: 404,
  OPERATION_NOT_FOUND: 404,
  UNABLE_TO_ALLOCATE_RESOURCE: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

/** One of {@link ERROR_STATUS}'s error types. */
export type VsphereErrorType = keyof typeof ERROR_STATUS;

const JSON_TYPE = { "Content-Type": "application/json" };

/** 200 (or another status) with a JSON body. */
export function jsonReply(value: unknown, route: string, status = 200): StandinReply {
  return { status, headers: JSON_TYPE, body: JSON.stringify(value), route };
}

/** An error in vSphere's shape: `{error_type, messages: [{args, default_message, id}]}`. */
export function vsphereError(
  type: VsphereErrorType,
  id: string,
  message: string,
  args: string[] = [],
  route?: string,
  extraHeaders: Record<string, string> = {},
): StandinReply {
  return {
    status: ERROR_STATUS[type],
    headers: { ...JSON_TYPE, ...extraHeaders },
    body: JSON.stringify({
      error_type: type,
      messages: [{ args, default_message: message, id }],
    }),
    ...(route ? { route } : {}),
  };
}
