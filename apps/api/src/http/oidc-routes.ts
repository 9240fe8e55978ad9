// The browser's side of single sign-on with OpenID Connect: GET /auth/oidc/<slug>/start sends the
// browser to the provider; GET /auth/oidc/<slug>/callback signs it in and sends it back to the app.
// Failures come back to the sign-in page as `/?signInError=<CODE>`; details go to the log only.
import type { IncomingMessage, ServerResponse } from "node:http";
import { deleteSession, sessionCookie, sessionSecretFromCookieHeader } from "../auth/sessions.ts";
import { type DelayRule, takeAttempt } from "../auth/throttle.ts";
import { hashSecret } from "../auth/tokens.ts";
import type { Config } from "../config.ts";
import type { AppServices } from "../context.ts";
import { signInExternalIdentity } from "../identity/external-sign-in.ts";
import {
  identityFromClaims,
  OidcSignIn,
  OidcSignInError,
  SIGN_IN_REQUEST_TTL_MS,
} from "../identity/oidc.ts";
import { findIdentityProvider } from "../identity/providers.ts";

const ROUTE = /^\/auth\/oidc\/([a-z0-9-]{1,32})\/(start|callback)$/;

/**
 * Starts per client address: each stores a row until it expires, so an anonymous client may not
 * start without bound. A person needs a handful; an office behind one address, a few dozen.
 */
export const SSO_START_LIMIT: DelayRule = {
  windowMs: 10 * 60_000,
  freeFailures: 100,
  firstDelayMs: 1000,
  maxDelayMs: 10 * 60_000,
};

/** Binds a started sign-in to the browser that started it (login CSRF: docs/behaviour.md §12). */
export const SSO_STATE_COOKIE = "__Host-hyperlens_sso";

function stateCookie(state: string): string {
  return `${SSO_STATE_COOKIE}=${state}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${SIGN_IN_REQUEST_TTL_MS / 1000}`;
}

const clearedStateCookie = `${SSO_STATE_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=") || undefined;
  }
  return undefined;
}

function redirect(res: ServerResponse, location: string, cookies: string[] = []) {
  res.writeHead(302, {
    location,
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    ...(cookies.length ? { "set-cookie": cookies } : {}),
  });
  res.end();
}

/** Where the sign-in page shows a failure: the app's root with a code it explains. */
export function signInErrorLocation(code: string): string {
  return `/?signInError=${encodeURIComponent(code)}`;
}

/**
 * A same-origin path to return to after signing in, or undefined: an absolute address, a
 * scheme-relative `//host` or a backslash trick would send the freshly signed-in browser elsewhere.
 */
export function safeReturnTo(value: string | null, publicUrl: string): string | undefined {
  const hasControlOrBackslash = [...(value ?? "")].some(
    (ch) => ch === "\\" || ch.charCodeAt(0) < 0x20,
  );
  if (!value || value.length > 2048 || !value.startsWith("/") || hasControlOrBackslash)
    return undefined;
  if (value.startsWith("//")) return undefined;
  try {
    const url = new URL(value, publicUrl);
    // TRAP: docs/behaviour.md §12 — returnTo is an open redirect unless it stays on our origin.
    if (url.origin !== new URL(publicUrl).origin) return undefined;
    if (url.pathname.startsWith("/auth/")) return undefined;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return undefined;
  }
}

/** The route handler, or undefined for a path it does not answer. */
export function createOidcRoutes(
  services: AppServices,
  config: Pick<Config, "publicUrl">,
  clientAddressOf: (req: IncomingMessage) => string | undefined,
) {
  const { publicUrl } = config;
  const oidc = publicUrl ? new OidcSignIn(services.prisma, publicUrl) : undefined;
  const sources = {
    prisma: services.prisma,
    secrets: services.secrets,
    environmentProviders: services.environmentProviders,
  };

  const fail = (res: ServerResponse, code: string, error?: unknown, slug?: string) => {
    services.metrics.authFailures.inc({ reason: "sso" });
    services.logger.warn(
      {
        provider: slug,
        code,
        err: error instanceof OidcSignInError ? (error.details ?? undefined) : error,
        reason: error instanceof Error ? error.message : undefined,
      },
      "Single sign-on failed",
    );
    redirect(res, signInErrorLocation(code), [clearedStateCookie]);
  };

  return async function answerOidc(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
  ): Promise<boolean> {
    const match = ROUTE.exec(path);
    if (!match) return false;
    const [, slug = "", step] = match;
    if (req.method !== "GET") {
      res.writeHead(405, { allow: "GET" });
      res.end();
      return true;
    }
    if (!oidc || !publicUrl) {
      fail(
        res,
        "NOT_CONFIGURED",
        new Error(
          "HYPERLENS_PUBLIC_URL is not set; single sign-on needs it for the redirect address.",
        ),
        slug,
      );
      return true;
    }
    const search = new URL(req.url ?? "/", publicUrl).searchParams;
    try {
      const provider = await findIdentityProvider(sources, slug);
      if (provider?.kind !== "OIDC" || !provider.isEnabled) {
        fail(
          res,
          "PROVIDER_UNAVAILABLE",
          new Error("No enabled OpenID Connect provider has this slug."),
          slug,
        );
        return true;
      }
      if (step === "start") {
        // TRAP: docs/behaviour.md §12 — an unlimited anonymous start would fill the table with requests.
        const address = clientAddressOf(req) ?? "unknown";
        if (await takeAttempt(services.prisma, `sso-start:${address}`, SSO_START_LIMIT)) {
          fail(
            res,
            "RATE_LIMITED",
            new Error("Too many sign-ins started from this address."),
            slug,
          );
          return true;
        }
        const { authorizationUrl, state } = await oidc.start(
          provider,
          safeReturnTo(search.get("returnTo"), publicUrl),
        );
        redirect(res, authorizationUrl, [stateCookie(state)]);
        return true;
      }
      const state = search.get("state");
      const bound = cookieValue(req.headers.cookie, SSO_STATE_COOKIE);
      // TRAP: docs/behaviour.md §12 — a callback link made by someone else (their code, their state) would
      // sign this browser in as them; only the browser that started the sign-in may finish it.
      if (!state || !bound || hashSecret(bound) !== hashSecret(state)) {
        fail(res, "STATE_INVALID", new Error("The sign-in was not started in this browser."), slug);
        return true;
      }
      const { claims, returnTo } = await oidc.finish(provider, search);
      const identity = identityFromClaims(provider.settings, claims);
      const result = await signInExternalIdentity(
        services.prisma,
        provider,
        identity,
        { address: clientAddressOf(req), userAgent: req.headers["user-agent"] },
        services.sessionPolicy,
      );
      if (!result.ok) {
        fail(res, result.reason, new Error(result.message), slug);
        return true;
      }
      // A fresh session at every sign-in: the one this browser had before ends.
      const previous = sessionSecretFromCookieHeader(req.headers.cookie);
      if (previous) {
        const old = await services.prisma.session.findUnique({
          where: { tokenHash: hashSecret(previous) },
        });
        if (old) await deleteSession(services.prisma, old.id);
      }
      redirect(res, returnTo ?? "/", [
        sessionCookie(result.secret, services.sessionPolicy.maxMs),
        clearedStateCookie,
      ]);
      return true;
    } catch (error) {
      if (error instanceof OidcSignInError) fail(res, error.code, error, slug);
      else fail(res, "FAILED", error, slug);
      return true;
    }
  };
}
