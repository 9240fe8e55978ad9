// Serves the built web app (apps/web/dist) from the API's origin, so cookies and CORS stay
// same-origin. A folder with an index.html is served as that page (GraphiQL at /graphiql/); other
// unknown paths fall back to index.html for client-side routes.
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
  ".ttf": "font/ttf",
};

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  // base-uri and form-action do not fall back to default-src: without them an injected <base> or
  // <form> could send scripts' relative addresses or a typed password elsewhere. GraphiQL's
  // stylesheets carry their fonts as data: addresses, which load nothing from anywhere.
  "content-security-policy":
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
};

/** Where the web build is looked for; overridable for packaged installs. */
export function defaultWebDir(): string {
  return process.env.HYPERLENS_WEB_DIR ?? path.resolve(import.meta.dirname, "../../../web/dist");
}

/** The file a path inside the build names: itself, or a folder's index.html. */
function fileAt(candidate: string): string | undefined {
  if (!existsSync(candidate)) return undefined;
  const stats = statSync(candidate);
  if (stats.isFile()) return candidate;
  const folderPage = path.join(candidate, "index.html");
  return stats.isDirectory() && existsSync(folderPage) ? folderPage : undefined;
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
    const file = (isInside && fileAt(candidate)) || index;
    const isAsset = file !== index && file.includes(`${path.sep}assets${path.sep}`);
    res.writeHead(200, {
      "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "cache-control": isAsset ? "public, max-age=31536000, immutable" : "no-cache",
      ...SECURITY_HEADERS,
    });
    createReadStream(file).pipe(res);
  };
}
