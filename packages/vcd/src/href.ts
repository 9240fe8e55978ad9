// Director answers with absolute hrefs built on its own public address, which may differ from the
// address the connection uses (load balancer, console proxy). Only the path is kept, and it is
// sent to the connection's own base URL: a token never follows an href to another host.
import { type HyperError, textError } from "@hyperlens/hyper-http";
import { serverText } from "@hyperlens/shared";

const UUID = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/;

/**
 * The request path of an `/api/…` href, relative to the connection's base URL: `basePath` is that
 * URL's path prefix ("" or "/vcd"), removed when the href carries it. Hrefs outside `/api/` are
 * refused as `malformed`.
 */
export function hrefToApiPath(href: string, basePath = ""): string {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw badHref(href, "not_absolute");
  }
  const prefix = basePath.replace(/\/+$/, "");
  const path =
    prefix && url.pathname.startsWith(`${prefix}/`)
      ? url.pathname.slice(prefix.length)
      : url.pathname;
  if (!path.startsWith("/api/") || path.includes("/../") || path.endsWith("/..")) {
    throw badHref(href, "outside_api");
  }
  return path;
}

/** `https://h/api/vApp/vm-<uuid>` → `urn:vcloud:vm:<uuid>` (lower-case), or null. */
export function vmUrnFromHref(href: string): string | null {
  const match = /\/vm-([0-9a-fA-F-]{36})(?:[/?#]|$)/.exec(href);
  const uuid = match?.[1];
  return uuid && UUID.test(uuid) ? `urn:vcloud:vm:${uuid.toLowerCase()}` : null;
}

/** The last UUID in an href (`…/edgeGateway/<uuid>`, `…/vimServer/<uuid>`), lower-case, or null. */
export function lastUuid(href: string): string | null {
  const all = href.match(new RegExp(UUID.source, "g"));
  const last = all?.[all.length - 1];
  return last ? last.toLowerCase() : null;
}

function badHref(href: string, why: "not_absolute" | "outside_api"): HyperError {
  return textError(serverText("vcdHrefRefused", { why, href: href.slice(0, 200) }), {
    errorClass: "malformed",
    source: "Cloud Director",
  });
}
