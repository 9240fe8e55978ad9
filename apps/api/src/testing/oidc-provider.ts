// A real OpenID provider for tests, the demo of single sign-on and the bench: `oidc-provider` (the
// certified implementation) on a loopback port, with its own login and consent pages, test users
// whose groups a test changes, signing keys it can rotate, and a hook that alters the token
// endpoint's answer on its way out — a man in the middle between Hyperlens and the provider.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import Provider, { type Configuration } from "oidc-provider";

/** A person the provider knows; their login name is their account id (the token's `sub`). */
export interface OidcTestUser {
  preferredUsername: string;
  email?: string;
  groups: string[];
}

/** The token endpoint's JSON answer, for a tamper hook to change. */
export type TokenResponseBody = Record<string, unknown> & { id_token?: string };

export interface OidcTestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Login name → person; change groups between sign-ins. */
  users: Map<string, OidcTestUser>;
  /** The private signing key in use (tests sign tokens the provider would accept as its own). */
  signingKey(): Promise<{ jwk: JWK; sign(payload: Record<string, unknown>): Promise<string> }>;
  /** Alters token endpoint answers until set back to undefined. */
  tamperTokenResponse: ((body: TokenResponseBody) => Promise<TokenResponseBody>) | undefined;
  /** Replaces the signing key with a new one (new kid); the old one leaves the key set. */
  rotateKeys(): Promise<void>;
  /** Milliseconds the provider spent answering requests since the last reset (for the bench). */
  busyMs: number;
  close(): Promise<void>;
}

const CLIENT_SECRET = "oidc-test-client-secret-0123456789";

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  return {
    ...jwk,
    alg: "RS256",
    use: "sig",
    kid: `k${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
  };
}

/**
 * Starts the provider on 127.0.0.1 with one confidential client (`hyperlens`, and `other-client`)
 * whose redirect URIs are given.
 */
export async function startOidcTestProvider(options: {
  redirectUris: string[];
  users?: Record<string, OidcTestUser>;
}): Promise<OidcTestProvider> {
  const users = new Map(Object.entries(options.users ?? {}));
  let key = await newSigningKey();
  let handler: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  const server = createServer((req, res) => {
    const started = performance.now();
    res.once("finish", () => {
      state.busyMs += performance.now() - started;
    });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const state: OidcTestProvider = {
    issuer,
    clientId: "hyperlens",
    clientSecret: CLIENT_SECRET,
    users,
    tamperTokenResponse: undefined,
    busyMs: 0,
    signingKey: async () => {
      const { importJWK } = await import("jose");
      const privateKey = await importJWK(key, "RS256");
      const kid = key.kid;
      return {
        jwk: key,
        sign: (payload) =>
          new SignJWT(payload)
            .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
            .sign(privateKey),
      };
    },
    rotateKeys: async () => {
      key = await newSigningKey();
      handler = build().callback();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const configuration = (): Configuration => ({
    clients: [
      {
        client_id: "hyperlens",
        client_secret: CLIENT_SECRET,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
      {
        client_id: "other-client",
        client_secret: `${CLIENT_SECRET}-other`,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [key as never] },
    // Test users only: any password opens the account named by the login.
    findAccount: (_ctx, id) => {
      const user = users.get(id);
      if (!user) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          preferred_username: user.preferredUsername,
          ...(user.email ? { email: user.email } : {}),
          groups: user.groups,
        }),
      };
    },
    claims: {
      openid: ["sub"],
      profile: ["preferred_username"],
      email: ["email"],
      groups: ["groups"],
    },
    scopes: ["openid", "profile", "email", "groups"],
    // The claims a scope asks for go into the ID token, where Hyperlens reads them.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ["oidc-test-provider-cookie-key"] },
  });

  const build = () => {
    const provider = new Provider(issuer, configuration());
    provider.use(async (ctx, next) => {
      await next();
      if (ctx.path === "/token" && ctx.status === 200 && state.tamperTokenResponse) {
        ctx.body = await state.tamperTokenResponse({ ...(ctx.body as TokenResponseBody) });
      }
    });
    return provider;
  };
  handler = build().callback();
  return state;
}

/** Decodes a JWT's payload without checking it (tests build altered copies from it). */
export function jwtPayload(token: string): Record<string, unknown> {
  const [, payload = ""] = token.split(".");
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
}
