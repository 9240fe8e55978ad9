// The vSphere Automation API session: Basic login at POST /api/session, the token sent back as
// `vmware-api-session-id` on every read, one re-login when it expires mid-sync, and the logout.
import {
  type HyperClient,
  type HyperError,
  type HyperRequest,
  type HyperResponse,
  isHyperError,
  textError,
  withHint,
} from "@hyperlens/hyper-http";
import { serverText } from "@hyperlens/shared";
import { parseSessionToken } from "./parse/session.ts";

/** Login credentials of a vCenter connection. */
export interface VcenterCredentials {
  /** `user@vsphere.local`, or `DOMAIN\user` / `user@ad.example` for identity sources. */
  username: string;
  password: string;
}

/** Options of {@link createVcenterSession}. */
export interface VcenterSessionOptions {
  http: HyperClient;
  credentials: VcenterCredentials;
}

/** Options of one read. */
export interface VcenterGetOptions {
  /**
   * Retry 5xx answers (default true); off where a 5xx is an answer (Tools off), or decided per
   * answer where only some are (the VM list's cap refusal).
   */
  retryServerErrors?: HyperRequest["retryServerErrors"];
}

/** A vCenter session: log in, send authorized reads, log out. */
export interface VcenterSession {
  /** Whether a session is open (or being opened). */
  readonly isOpen: boolean;
  login(): Promise<void>;
  /** Deletes the open session; does nothing without one. Rejects when the DELETE fails. */
  logout(): Promise<void>;
  /** GET with the session header; after a 401 logs in again once and repeats the call. */
  get(path: string, options?: VcenterGetOptions): Promise<HyperResponse>;
}

/** The header vCenter reads the session token from. */
export const SESSION_HEADER = "vmware-api-session-id";
const SESSION_PATH = "/api/session";

/** Creates a {@link VcenterSession}; concurrent callers share one login in flight. */
export function createVcenterSession(options: VcenterSessionOptions): VcenterSession {
  const { http, credentials } = options;
  let token: string | undefined;
  let pending: Promise<string> | undefined;
  /** Set by logout, cleared by the next login: no read may open a session in between. */
  let isLoggedOut = false;

  async function postLogin(): Promise<string> {
    const basic = Buffer.from(`${credentials.username}:${credentials.password}`, "utf8");
    try {
      const answer = await http.request({
        method: "POST",
        path: SESSION_PATH,
        purpose: "login",
        headers: { authorization: `Basic ${basic.toString("base64")}` },
      });
      return parseSessionToken(answer.json(), `POST ${SESSION_PATH}`);
    } catch (error) {
      if (isHyperError(error) && error.status === 401) throw withLoginHint(error);
      throw error;
    }
  }

  function login(): Promise<string> {
    if (token !== undefined) return Promise.resolve(token);
    pending ??= postLogin()
      .then((opened) => {
        token = opened;
        return opened;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  }

  async function get(path: string, getOptions: VcenterGetOptions = {}): Promise<HyperResponse> {
    if (token === undefined && pending === undefined) {
      throw textError(serverText("hyperNoSession", { source: "vCenter", path }), {
        errorClass: "config",
        source: "vCenter",
        method: "GET",
        path,
      });
    }
    const send = (used: string) =>
      http.request({
        method: "GET",
        path,
        headers: { [SESSION_HEADER]: used },
        ...(getOptions.retryServerErrors === undefined
          ? {}
          : { retryServerErrors: getOptions.retryServerErrors }),
      });
    const used = await login();
    try {
      return await send(used);
    } catch (error) {
      // Sessions end after 30 idle minutes or a vpxd restart; one fresh login covers a long sync,
      // a second 401 is a real "auth" failure.
      if (!isHyperError(error) || error.status !== 401) throw error;
      // TRAP: docs/behaviour.md §5 — a read still on the wire when its sibling failed and the session was
      // deleted gets this 401 too; logging in again then would open a session nobody deletes.
      if (isLoggedOut) throw error;
      if (token === used) token = undefined;
      return send(await login());
    }
  }

  async function logout(): Promise<void> {
    isLoggedOut = true;
    const open = token ?? (pending ? await pending.catch(() => undefined) : undefined);
    token = undefined;
    if (open === undefined) return;
    await http.request({
      method: "DELETE",
      path: SESSION_PATH,
      purpose: "logout",
      headers: { [SESSION_HEADER]: open },
    });
  }

  return {
    get isOpen() {
      return token !== undefined || pending !== undefined;
    },
    login: async () => {
      isLoggedOut = false;
      await login();
    },
    logout,
    get,
  };
}

function withLoginHint(error: HyperError): HyperError {
  return withHint(error, serverText("vcenterLoginHint", {}));
}
