// Serves the built web app (apps/web/dist) from the API's origin, so cookies and CORS stay
// same-origin. Unknown paths fall back to index.html for client-side routes.
import { createReadStream, existsSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".map": "application/json",
  ".woff2": "font/woff2",
};

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  // base-uri and form-action do not fall back to default-src: without them an injected <base> or
  // <form> could send scripts' relative addresses or a typed password elsewhere.
  "content-security-policy":
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
};

/** Where the web build is looked for; overridable for packaged installs. */
export function defaultWebDir(): string {
  return process.env.HYPERLENS_WEB_DIR ?? path.resolve(import.meta.dirname, "../../../web/dist");
}

/** A handler for GET requests of the web app, or undefined when no build exists. */
export function createStaticHandler(webDir = defaultWebDir()) {
  const index = path.join(webDir, "index.html");
  if (!existsSync(index)) return undefined;
  return (req: IncomingMessage, res: ServerResponse) => {
    const urlPath = decodeURIComponent((req.url ?? "/").split("?")[0] ?? "/");
    const candidate = path.resolve(webDir, `.${urlPath}`);
    // TRAP: a path that climbs out of the web folder must never be served.
    const isInside = candidate.startsWith(`${webDir}${path.sep}`);
    const file =
      isInside && existsSync(candidate) && statSync(candidate).isFile() ? candidate : index;
    const isAsset = file !== index && file.includes(`${path.sep}assets${path.sep}`);
    res.writeHead(200, {
      "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "cache-control": isAsset ? "public, max-age=31536000, immutable" : "no-cache",
      ...SECURITY_HEADERS,
    });
    createReadStream(file).pipe(res);
  };
}
