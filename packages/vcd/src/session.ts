// The CloudAPI session: login (tenant or provider, with API version negotiation), the bearer token
// for every read, one re-login when the token expires mid-sync, and the logout.
import {
  type HyperClient,
  type HyperError,
  type HyperLogger,
  type HyperResponse,
  isHyperError,
  textError,
  withHint,
} from "@hyperlens/hyper-http";
import { serverText } from "@hyperlens/shared";
import { pickApiVersion, SUPPORTED_API_MAJORS } from "./api-version.ts";
import { parseLoginName } from "./login-name.ts";
import { parseSession, type VcdSessionInfo } from "./parse/session.ts";
import { parseSupportedVersions, type VcdApiVersion } from "./parse/versions.ts";

/** Login credentials of a Director connection. */
export interface VcdCredentials {
  /** `user@org`; `user@System` for provider administrators. */
  username: string;
  password: string;
}

/** Options of {@link createVcdSession}. */
export interface VcdSessionOptions {
  http: HyperClient;
  credentials: VcdCredentials;
  apiVersion: string;
  logger: HyperLogger;
}

/** A Director session: log in, send authorized reads, log out. */
export interface VcdSession {
  /** The API version in use (after negotiation, if the server refused the first one). */
  readonly apiVersion: string;
  readonly isProvider: boolean;
  /** The open session, or null. */
  readonly info: VcdSessionInfo | null;
  login(): Promise<VcdSessionInfo>;
  /** Deletes the open session; does nothing without one. Rejects when the DELETE fails. */
  logout(): Promise<void>;
  /** GET with the bearer token; after a 401 logs in again once and repeats the call. */
  get(
    path: string,
    format: "xml" | "json",
    query?: Record<string, string | number>,
  ): Promise<HyperResponse>;
  /** `GET /api/versions` (no login needed). */
  supportedVersions(): Promise<VcdApiVersion[]>;
}

const SESSIONS = "/cloudapi/1.0.0/sessions";

/** Creates a {@link VcdSession}; concurrent callers share one login in flight. */
export function createVcdSession(options: VcdSessionOptions): VcdSession {
  const { http, credentials } = options;
  const name = parseLoginName(credentials.username);
  let apiVersion = options.apiVersion;
  let hasNegotiated = false;
  let open: { token: string; info: VcdSessionInfo } | undefined;
  let pending: Promise<{ token: string; info: VcdSessionInfo }> | undefined;
  /** Set by logout, cleared by the next login: no read may open a session in between. */
  let isLoggedOut = false;

  const accept = (format: "xml" | "json") =>
    format === "xml"
      ? `application/*+xml;version=${apiVersion}`
      : `application/json;version=${apiVersion}`;

  async function supportedVersions(): Promise<VcdApiVersion[]> {
    const answer = await http.request({
      method: "GET",
      path: "/api/versions",
      headers: { accept: "application/*+xml" },
    });
    return parseSupportedVersions(answer.text(), "GET /api/versions");
  }

  async function postLogin(): Promise<{ token: string; info: VcdSessionInfo }> {
    const path = name.isProvider ? `${SESSIONS}/provider` : SESSIONS;
    const basic = Buffer.from(`${credentials.username}:${credentials.password}`, "utf8");
    const answer = await http.request({
      method: "POST",
      path,
      purpose: "login",
      headers: { authorization: `Basic ${basic.toString("base64")}`, accept: accept("json") },
    });
    const token = answer.headers["x-vmware-vcloud-access-token"];
    if (typeof token !== "string" || token.trim() === "") {
      const minApi = String(SUPPORTED_API_MAJORS.min);
      throw textError(serverText("vcdNoAccessToken", { path, minApi }), {
        errorClass: "malformed",
        source: "Cloud Director",
        method: "POST",
        path,
      });
    }
    return { token: token.trim(), info: parseSession(answer.json(), `POST ${path}`) };
  }

  async function loginOnce(): Promise<{ token: string; info: VcdSessionInfo }> {
    try {
      return await postLogin();
    } catch (error) {
      if (!isHyperError(error)) throw error;
      if (error.status === 401) throw withLoginHint(error, name.isProvider);
      if (error.status !== 406 || hasNegotiated) throw error;
    }
    // 406: this server does not speak the version we asked for; ask which it does, retry once.
    hasNegotiated = true;
    const offered = await supportedVersions();
    const picked = pickApiVersion(offered);
    if (picked === null) {
      const text = serverText("vcdNoApiVersion", {
        asked: options.apiVersion,
        minApi: String(SUPPORTED_API_MAJORS.min),
        maxApi: String(SUPPORTED_API_MAJORS.max),
        offered: offered.map((v) => v.version).join(", ") || "none",
      });
      throw textError(text, {
        errorClass: "not_found",
        source: "Cloud Director",
        status: 406,
        path: "/api/versions",
      });
    }
    options.logger.info({
      msg: "Cloud Director API version negotiated",
      from: apiVersion,
      to: picked,
    });
    apiVersion = picked;
    return postLogin();
  }

  function login(): Promise<{ token: string; info: VcdSessionInfo }> {
    if (open) return Promise.resolve(open);
    pending ??= loginOnce()
      .then((session) => {
        open = session;
        return session;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  }

  async function get(
    path: string,
    format: "xml" | "json",
    query?: Record<string, string | number>,
  ): Promise<HyperResponse> {
    const send = (token: string) =>
      http.request({
        method: "GET",
        path,
        ...(query ? { query } : {}),
        headers: { authorization: `Bearer ${token}`, accept: accept(format) },
      });
    if (!open && !pending) {
      throw textError(serverText("hyperNoSession", { source: "Cloud Director", path }), {
        errorClass: "config",
        source: "Cloud Director",
        method: "GET",
        path,
      });
    }
    const used = await login();
    try {
      return await send(used.token);
    } catch (error) {
      // Sessions expire after their idle timeout (30 min by default) or the token's lifetime; one
      // fresh login covers a long sync, a second 401 is a real "auth" failure.
      if (!isHyperError(error) || error.status !== 401) throw error;
      // TRAP: docs/behaviour.md §4 — a read still on the wire when its sibling failed and the session was
      // deleted gets this 401 too; logging in again then would open a session nobody deletes.
      if (isLoggedOut) throw error;
      if (open === used) open = undefined;
      return send((await login()).token);
    }
  }

  async function logout(): Promise<void> {
    isLoggedOut = true;
    const session = open ?? (pending ? await pending.catch(() => undefined) : undefined);
    open = undefined;
    if (!session) return;
    const id = session.info.id;
    await http.request({
      method: "DELETE",
      path: `${SESSIONS}/${id ?? "current"}`,
      purpose: "logout",
      headers: { authorization: `Bearer ${session.token}`, accept: accept("json") },
    });
  }

  return {
    get apiVersion() {
      return apiVersion;
    },
    isProvider: name.isProvider,
    get info() {
      return open?.info ?? null;
    },
    login: async () => {
      isLoggedOut = false;
      return (await login()).info;
    },
    logout,
    get,
    supportedVersions,
  };
}

function withLoginHint(error: HyperError, isProvider: boolean): HyperError {
  return withHint(
    error,
    serverText(isProvider ? "vcdLoginHintProvider" : "vcdLoginHintTenant", {}),
  );
}
