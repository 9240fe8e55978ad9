// HYPERLENS_PUBLIC_URL: the one address users open Hyperlens at. When it is set, a request whose
// Host header names another host is refused: a page on a rebinding attacker's name (DNS pointed
// at this server) names the attacker's host, and must not reach the API or the web app through it.
import { z } from "zod";
import { ERROR_CODES, refusalBody } from "../errors.ts";

/** The setting: an http(s) address with no path, as its origin (`https://host[:port]`). */
export const publicUrlSetting = z
  .string()
  .transform((value, ctx) => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    const isPlainOrigin =
      url !== undefined &&
      (url.protocol === "https:" || url.protocol === "http:") &&
      url.username === "" &&
      url.password === "" &&
      url.pathname === "/" &&
      url.search === "" &&
      url.hash === "";
    if (!url || !isPlainOrigin) {
      ctx.addIssue({
        code: "custom",
        message:
          "must be the address users open, like https://hyperlens.example.com (http or https, no path)",
      });
      return z.NEVER;
    }
    return url.origin;
  })
  .optional();

/** Characters a Host header may hold: a name or address and a port. */
const HOST_HEADER = /^[A-Za-z0-9.\-:[\]]+$/;

/** True when `hostHeader` names the host of `publicOrigin` (any case; a default port may be given). */
export function isPublicHost(hostHeader: string | undefined, publicOrigin: string): boolean {
  if (!hostHeader || !HOST_HEADER.test(hostHeader)) return false;
  const expected = new URL(publicOrigin);
  try {
    return new URL(`${expected.protocol}//${hostHeader}`).host === expected.host;
  } catch {
    return false;
  }
}

/** The HTTP status of the refusal: the request was sent to a server that does not answer for it. */
export const MISDIRECTED_STATUS = 421;

/** The JSON body of the refusal, naming the setting so an operator knows what to change. */
export function misdirectedRequestBody(publicOrigin: string) {
  return refusalBody(
    `This server answers only for ${new URL(publicOrigin).host} (HYPERLENS_PUBLIC_URL); the request's Host header names another host.`,
    ERROR_CODES.BAD_REQUEST,
  );
}
