// Single sign-on with OpenID Connect (openid-client): the authorization code flow with PKCE, a
// state and a nonce kept server-side (hashed, single use, 10 minutes), and the ID token checked
// by the library — issuer, audience, expiry, nonce and, turned on here, its signature.
import type { PrismaClient } from "@hyperlens/db";
import * as client from "openid-client";
import { hashSecret } from "../auth/tokens.ts";
import type { IdentityProviderConfig, OidcSettings } from "./provider-config.ts";

/** How long a started sign-in may take to come back. */
export const SIGN_IN_REQUEST_TTL_MS = 10 * 60_000;

// Discovery documents change rarely; a provider's keys are fetched by the library as they change.
const DISCOVERY_TTL_MS = 10 * 60_000;

// Calls to the provider (discovery, keys, token) give up after this long.
const PROVIDER_TIMEOUT_SECONDS = 10;

/** The path the provider sends the browser back to, under the public address. */
export function callbackPath(slug: string): string {
  return `/auth/oidc/${slug}/callback`;
}

/** The redirect URI registered at the provider: the public address and the callback path. */
export function redirectUri(publicUrl: string, slug: string): string {
  return new URL(callbackPath(slug), publicUrl).href;
}

/** Why an OpenID Connect sign-in failed before a person was known; codes the sign-in page explains. */
export type OidcFailure =
  | "PROVIDER_UNAVAILABLE"
  | "STATE_INVALID"
  | "STATE_EXPIRED"
  | "PROVIDER_ERROR"
  | "TOKEN_REJECTED"
  | "CLAIMS_MISSING";

/** A failure with its code for the browser and details for the log only. */
export class OidcSignInError extends Error {
  override name = "OidcSignInError";
  constructor(
    readonly code: OidcFailure,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

type OidcProvider = IdentityProviderConfig & { kind: "OIDC"; settings: OidcSettings };

interface Discovered {
  metadata: client.ServerMetadata;
  fetchedAt: number;
  jwks: client.ExportedJWKSCache | undefined;
}

/** OpenID Connect for one server: discovery and key caches per provider, and the two steps. */
export class OidcSignIn {
  private readonly discovered = new Map<string, Discovered | Promise<Discovered>>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly publicUrl: string,
  ) {}

  private cacheKey(provider: OidcProvider) {
    return JSON.stringify([provider.slug, provider.settings.issuer, provider.settings.clientId]);
  }

  private async discover(provider: OidcProvider): Promise<Discovered> {
    const key = this.cacheKey(provider);
    const cached = this.discovered.get(key);
    if (cached && (cached instanceof Promise || Date.now() - cached.fetchedAt < DISCOVERY_TTL_MS))
      return cached;
    const pending = (async () => {
      const issuer = new URL(provider.settings.issuer);
      const config = await client.discovery(
        issuer,
        provider.settings.clientId,
        undefined,
        undefined,
        {
          execute: issuer.protocol === "http:" ? [client.allowInsecureRequests] : [],
          timeout: PROVIDER_TIMEOUT_SECONDS,
        },
      );
      return { metadata: config.serverMetadata(), fetchedAt: Date.now(), jwks: undefined };
    })();
    this.discovered.set(key, pending);
    try {
      const done = await pending;
      this.discovered.set(key, done);
      return done;
    } catch (error) {
      this.discovered.delete(key);
      throw new OidcSignInError(
        "PROVIDER_UNAVAILABLE",
        `The provider ${provider.slug} could not be reached or its discovery document is not valid.`,
        error,
      );
    }
  }

  /** A client configuration for one sign-in step, with the ID token signature checked. */
  private configuration(provider: OidcProvider, discovered: Discovered): client.Configuration {
    const secret = provider.secret();
    const config = new client.Configuration(
      // A copy: the library caches keys per metadata object, and this sign-in's cache is handed in below.
      structuredClone(discovered.metadata),
      provider.settings.clientId,
      undefined,
      secret ? client.ClientSecretPost(secret) : client.None(),
    );
    if (new URL(provider.settings.issuer).protocol === "http:")
      client.allowInsecureRequests(config);
    config.timeout = PROVIDER_TIMEOUT_SECONDS;
    // TRAP: docs/behaviour.md §12 — openid-client trusts the TLS channel for an ID token from the token
    // endpoint and skips its signature unless this is on; an altered token would then sign anyone in.
    client.enableNonRepudiationChecks(config);
    if (discovered.jwks?.uat !== undefined) {
      // Keys are handed in as at least a minute old: then a key the provider has just started
      // signing with is fetched at once, where a younger cache would fail sign-ins for up to a minute.
      const nowSeconds = Math.floor(Date.now() / 1000);
      client.setJwksCache(config, {
        ...discovered.jwks,
        uat: Math.min(discovered.jwks.uat, nowSeconds - 60),
      });
    }
    return config;
  }

  /**
   * Starts a sign-in: stores the state (hashed), nonce and PKCE verifier, and returns the
   * provider's authorization address and the state for the browser-binding cookie.
   */
  async start(
    provider: OidcProvider,
    returnTo: string | undefined,
  ): Promise<{ authorizationUrl: string; state: string }> {
    const discovered = await this.discover(provider);
    const config = this.configuration(provider, discovered);
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    const now = Date.now();
    // Unfinished sign-ins are worthless after their expiry; each start sweeps them.
    await this.prisma.ssoSignInRequest.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
    await this.prisma.ssoSignInRequest.create({
      data: {
        stateHash: hashSecret(state),
        provider: provider.slug,
        nonce,
        codeVerifier,
        returnTo: returnTo ?? null,
        expiresAt: new Date(now + SIGN_IN_REQUEST_TTL_MS),
      },
    });
    const scopes = new Set(["openid", ...provider.settings.scopes.split(" ")]);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri(this.publicUrl, provider.slug),
      scope: [...scopes].join(" "),
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    return { authorizationUrl: url.href, state };
  }

  /**
   * Finishes a sign-in from the callback's query: takes the stored request (once), exchanges the
   * code and returns the validated ID token's claims.
   */
  async finish(
    provider: OidcProvider,
    search: URLSearchParams,
  ): Promise<{ claims: client.IDToken; returnTo: string | undefined }> {
    const state = search.get("state");
    if (!state || state.length > 512)
      throw new OidcSignInError("STATE_INVALID", "The sign-in came back without a known state.");
    const request = await this.prisma.ssoSignInRequest.findUnique({
      where: { stateHash: hashSecret(state) },
    });
    // TRAP: docs/behaviour.md §12 — a state is used once: deleting it first, and going on only if this
    // call deleted it, stops a replayed or doubled callback.
    const taken = request
      ? await this.prisma.ssoSignInRequest.deleteMany({ where: { id: request.id } })
      : { count: 0 };
    if (!request || taken.count !== 1 || request.provider !== provider.slug)
      throw new OidcSignInError("STATE_INVALID", "The sign-in came back without a known state.");
    if (request.expiresAt.getTime() <= Date.now())
      throw new OidcSignInError("STATE_EXPIRED", "The sign-in took too long; start again.");
    const error = search.get("error");
    if (error)
      throw new OidcSignInError("PROVIDER_ERROR", "The provider refused the sign-in.", {
        error,
        description: search.get("error_description"),
      });
    const discovered = await this.discover(provider);
    const config = this.configuration(provider, discovered);
    const currentUrl = new URL(callbackPath(provider.slug), this.publicUrl);
    currentUrl.search = search.toString();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: request.codeVerifier,
        expectedState: state,
        expectedNonce: request.nonce,
        idTokenExpected: true,
      });
    } catch (cause) {
      throw new OidcSignInError("TOKEN_REJECTED", "The provider's answer was not accepted.", cause);
    } finally {
      const jwks = client.getJwksCache(config);
      if (jwks) discovered.jwks = jwks;
    }
    const claims = tokens.claims();
    if (!claims)
      throw new OidcSignInError("TOKEN_REJECTED", "The provider's answer had no ID token.");
    return {
      claims: await withGroups(provider.settings, config, tokens.access_token, claims),
      returnTo: request.returnTo ?? undefined,
    };
  }
}

/**
 * The ID token's claims with the groups claim filled in from the userinfo endpoint when the ID
 * token leaves it out, as providers that follow the specification to the letter do (claims asked
 * for by scope go to userinfo when an access token is issued).
 */
async function withGroups(
  settings: OidcSettings,
  config: client.Configuration,
  accessToken: string | undefined,
  claims: client.IDToken,
): Promise<client.IDToken> {
  const name = settings.groupsClaim;
  if (claims[name] !== undefined) return claims;
  const elsewhere = claims._claim_names;
  // TRAP: docs/behaviour.md §12.46 — Entra ID's group overage: the groups are left out and
  // pointed to; mapping "no groups" would take every grant away from a member of many groups.
  if (elsewhere && typeof elsewhere === "object" && name in elsewhere)
    throw new OidcSignInError(
      "CLAIMS_MISSING",
      `The ID token points elsewhere for its ${name} claim (Entra ID group overage: the person is in more groups than a token carries). Emit only the groups assigned to the application, or map app roles (claim "roles").`,
    );
  if (!accessToken) return claims;
  let userInfo: client.UserInfoResponse;
  try {
    userInfo = await client.fetchUserInfo(config, accessToken, claims.sub);
  } catch (cause) {
    throw new OidcSignInError(
      "PROVIDER_UNAVAILABLE",
      "The provider's userinfo endpoint did not answer.",
      cause,
    );
  }
  return userInfo[name] === undefined ? claims : { ...claims, [name]: userInfo[name] };
}

function claimText(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The groups claim as a list: an array of names, or one string separated by spaces or commas. */
export function groupsFromClaim(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(claimText).filter((g) => g !== undefined);
  if (typeof value === "string") return value.split(/[\s,]+/).filter(Boolean);
  return [];
}

/** Who signed in, read from the ID token with the provider's claim names. */
export function identityFromClaims(settings: OidcSettings, claims: Record<string, unknown>) {
  const subject = claimText(claims[settings.subjectClaim]);
  if (!subject)
    throw new OidcSignInError(
      "CLAIMS_MISSING",
      `The ID token has no ${settings.subjectClaim} claim to identify the person.`,
    );
  return {
    subject,
    preferredUsername: claimText(claims[settings.usernameClaim]),
    email: claimText(claims[settings.emailClaim]),
    groups: groupsFromClaim(claims[settings.groupsClaim]),
  };
}
