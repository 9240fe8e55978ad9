// The directory client (ldapts): checks a person's user name and password against an LDAP server
// or Active Directory the usual way — bind as the service account, find exactly one person with
// the configured filter, bind as that person with the password they typed — and reads who they
// are (a stable subject, a user name, an e-mail) and which groups they are in. One connection, TLS
// verified, every step under a time limit; every failure a DirectoryError of one kind.
import { isIP } from "node:net";
import type { ConnectionOptions } from "node:tls";
import {
  Client,
  ConfidentialityRequiredError,
  type Entry,
  InvalidCredentialsError,
  NoSuchObjectError,
  SizeLimitExceededError,
  StrongAuthRequiredError,
} from "ldapts";
import { DN_PLACEHOLDER, type LdapSettings, USERNAME_PLACEHOLDER } from "./ldap-settings.ts";

/**
 * What went wrong. The first four are the person's to fix (and answered exactly as a wrong local
 * password is, so nobody learns which names exist); the rest are the administrator's.
 */
export type DirectoryFailure =
  | "EMPTY_PASSWORD"
  | "NO_SUCH_USER"
  | "AMBIGUOUS_USER"
  | "WRONG_PASSWORD"
  | "UNREACHABLE"
  | "TIMEOUT"
  | "TLS"
  | "SERVICE_BIND"
  | "MISCONFIGURED"
  | "NO_SUBJECT";

/** Failures that mean "wrong user name or password" to the person signing in. */
export const CREDENTIAL_FAILURES: ReadonlySet<DirectoryFailure> = new Set([
  "EMPTY_PASSWORD",
  "NO_SUCH_USER",
  "AMBIGUOUS_USER",
  "WRONG_PASSWORD",
]);

/** A directory failure, its message written for the administrator (never holding a password). */
export class DirectoryError extends Error {
  override name = "DirectoryError";
  constructor(
    readonly failure: DirectoryFailure,
    message: string,
  ) {
    super(message);
  }
}

/** A person the directory vouched for. */
export interface DirectoryPerson {
  /** Their entry's DN at this sign-in (it changes on rename: never a key). */
  dn: string;
  /** The stable attribute's value (entryUUID, objectGUID as text): the key of the identity. */
  subject: string;
  /** As the directory spells it (uid, sAMAccountName), not as it was typed. */
  username: string;
  email: string | undefined;
  /** The DNs of the groups they are in, as the directory spells them. */
  groups: string[];
}

/**
 * A value escaped for an LDAP filter (RFC 4515 §3): `*`, `(`, `)`, `\` and NUL become `\2a`,
 * `\28`, `\29`, `\5c` and `\00`, so a typed user name can only ever be a value, never filter syntax.
 */
export function escapeFilterValue(value: string): string {
  return value.replace(
    /[*()\\\0]/g,
    (char) => `\\${char.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
}

/** An Active Directory objectGUID (16 bytes, the first three groups little-endian) as text. */
export function formatGuid(bytes: Buffer): string {
  if (bytes.length !== 16) return bytes.toString("hex");
  const hex = (from: number, to: number, reverse: boolean) => {
    const part = [...bytes.subarray(from, to)];
    return (reverse ? part.reverse() : part).map((b) => b.toString(16).padStart(2, "0")).join("");
  };
  return [
    hex(0, 4, true),
    hex(4, 6, true),
    hex(6, 8, true),
    hex(8, 10, false),
    hex(10, 16, false),
  ].join("-");
}

const BINARY_SUBJECTS = new Set(["objectguid", "objectsid", "msds-objectguid"]);

function tlsOptions(settings: LdapSettings): ConnectionOptions {
  const host = new URL(settings.url).hostname.replace(/^\[|\]$/g, "");
  return {
    // TRAP: docs/behaviour.md §12.43 — without verification anyone on the path could read every
    // password typed into the sign-in form; there is no switch to turn it off.
    rejectUnauthorized: true,
    ...(settings.caPem ? { ca: [settings.caPem] } : {}),
    ...(isIP(host) ? {} : { servername: host }),
    minVersion: "TLSv1.2",
  };
}

const TLS_CODES: Record<string, string> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "was not signed by the configured CA",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "was not signed by the configured CA",
  SELF_SIGNED_CERT_IN_CHAIN: "was not signed by the configured CA",
  CERT_SIGNATURE_FAILURE: "was not signed by the configured CA",
  DEPTH_ZERO_SELF_SIGNED_CERT: "is self-signed and not the configured CA",
  CERT_HAS_EXPIRED: "has expired",
  CERT_NOT_YET_VALID: "is not valid yet",
  ERR_TLS_CERT_ALTNAME_INVALID: "does not name the host in the provider's address",
};

/** A low-level failure (socket, TLS, protocol) as a DirectoryError for the administrator. */
function classify(error: unknown, settings: LdapSettings, during: string): DirectoryError {
  if (error instanceof DirectoryError) return error;
  const where = new URL(settings.url).host;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === "string" && TLS_CODES[code]) {
    return new DirectoryError(
      "TLS",
      `The directory's certificate at ${where} ${TLS_CODES[code]} (${code}); check the provider's CA certificate.`,
    );
  }
  if (
    typeof code === "string" &&
    [
      "ECONNREFUSED",
      "ENOTFOUND",
      "EHOSTUNREACH",
      "ENETUNREACH",
      "EAI_AGAIN",
      "ECONNRESET",
    ].includes(code)
  ) {
    return new DirectoryError(
      "UNREACHABLE",
      `The directory at ${where} cannot be reached (${code}).`,
    );
  }
  if (/timed? ?out/i.test(message)) {
    return new DirectoryError(
      "TIMEOUT",
      `The directory at ${where} did not answer within ${settings.timeoutMs} ms ${during}.`,
    );
  }
  if (error instanceof ConfidentialityRequiredError || error instanceof StrongAuthRequiredError) {
    return new DirectoryError(
      "MISCONFIGURED",
      `The directory at ${where} requires an encrypted connection: use ldaps:// or StartTLS.`,
    );
  }
  if (
    /ssl|tls|certificate|handshake|wrong version number/i.test(message) ||
    during === "starting TLS"
  ) {
    return new DirectoryError(
      "TLS",
      `TLS with the directory at ${where} failed ${during}: ${message}`,
    );
  }
  if (/closed|socket/i.test(message)) {
    return new DirectoryError(
      "UNREACHABLE",
      `The directory at ${where} closed the connection ${during}.`,
    );
  }
  return new DirectoryError(
    "MISCONFIGURED",
    `The directory at ${where} refused ${during}: ${message}`,
  );
}

function firstValue(entry: Entry, attribute: string): string | Buffer | undefined {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key === undefined ? undefined : entry[key];
  return Array.isArray(value) ? value[0] : value;
}

function textValues(entry: Entry, attribute: string): string[] {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key === undefined ? undefined : entry[key];
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.map((v) => (Buffer.isBuffer(v) ? v.toString("utf8") : v));
}

/** Opens a connection (TLS from the start, or upgraded with StartTLS) and binds the service account. */
async function connect(settings: LdapSettings, bindPassword: string | undefined): Promise<Client> {
  const isLdaps = settings.url.startsWith("ldaps:");
  const client = new Client({
    url: settings.url,
    timeout: settings.timeoutMs,
    connectTimeout: settings.timeoutMs,
    strictDN: true,
    ...(isLdaps ? { tlsOptions: tlsOptions(settings) } : {}),
  });
  try {
    if (!isLdaps && settings.startTls) {
      try {
        await client.startTLS(tlsOptions(settings));
      } catch (error) {
        throw classify(error, settings, "starting TLS");
      }
    }
    // TRAP: docs/behaviour.md §12.41 — a bind with a name and no password is an anonymous bind that
    // many servers accept: it would "succeed" while proving nothing.
    if (!bindPassword) {
      throw new DirectoryError(
        "SERVICE_BIND",
        "The provider has no bind password: give the service account's password.",
      );
    }
    try {
      await client.bind(settings.bindDn, bindPassword);
    } catch (error) {
      if (error instanceof InvalidCredentialsError) {
        throw new DirectoryError(
          "SERVICE_BIND",
          `The directory refused the service account ${settings.bindDn}: check its bind DN and password.`,
        );
      }
      throw classify(error, settings, "binding the service account");
    }
    return client;
  } catch (error) {
    await client.unbind().catch(() => {});
    throw error;
  }
}

/** The one person the filter finds for this user name, or a credential failure. */
async function findPerson(
  client: Client,
  settings: LdapSettings,
  username: string,
): Promise<Entry> {
  // TRAP: docs/behaviour.md §12.40 — an unescaped name like `bob)(|(uid=*` rewrites the filter and
  // slips past the conditions it holds (a group, an account type).
  const filter = settings.userFilter.replace(USERNAME_PLACEHOLDER, escapeFilterValue(username));
  const binary = BINARY_SUBJECTS.has(settings.subjectAttribute.toLowerCase());
  try {
    const { searchEntries } = await client.search(settings.userBaseDn, {
      scope: "sub",
      filter,
      sizeLimit: 2,
      timeLimit: Math.ceil(settings.timeoutMs / 1000),
      attributes: [
        settings.subjectAttribute,
        settings.usernameAttribute,
        settings.emailAttribute,
        ...(settings.groupMembership === "memberOf" ? [settings.memberOfAttribute] : []),
      ],
      ...(binary ? { explicitBufferAttributes: [settings.subjectAttribute] } : {}),
    });
    if (searchEntries.length > 1) {
      throw new DirectoryError(
        "AMBIGUOUS_USER",
        `The user filter finds more than one entry for ${JSON.stringify(username)}.`,
      );
    }
    const [entry] = searchEntries;
    if (!entry)
      throw new DirectoryError("NO_SUCH_USER", `No entry matches ${JSON.stringify(username)}.`);
    return entry;
  } catch (error) {
    if (error instanceof SizeLimitExceededError) {
      throw new DirectoryError(
        "AMBIGUOUS_USER",
        `The user filter finds more than one entry for ${JSON.stringify(username)}.`,
      );
    }
    if (error instanceof NoSuchObjectError) {
      throw new DirectoryError(
        "MISCONFIGURED",
        `The user base DN ${settings.userBaseDn} does not exist in the directory.`,
      );
    }
    throw classify(error, settings, "searching for the user");
  }
}

async function searchGroups(client: Client, settings: LdapSettings, dn: string): Promise<string[]> {
  const base = settings.groupBaseDn ?? settings.userBaseDn;
  try {
    const { searchEntries } = await client.search(base, {
      scope: "sub",
      filter: settings.groupFilter.replace(DN_PLACEHOLDER, escapeFilterValue(dn)),
      attributes: ["1.1"],
      timeLimit: Math.ceil(settings.timeoutMs / 1000),
    });
    return searchEntries.map((group) => group.dn);
  } catch (error) {
    if (error instanceof NoSuchObjectError) {
      throw new DirectoryError(
        "MISCONFIGURED",
        `The group base DN ${base} does not exist in the directory.`,
      );
    }
    throw classify(error, settings, "searching for the user's groups");
  }
}

/**
 * Checks `username` and `password` against the directory and returns who they are. Throws a
 * {@link DirectoryError}; one of {@link CREDENTIAL_FAILURES} means a wrong name or password.
 */
export async function authenticateWithDirectory(
  settings: LdapSettings,
  bindPassword: string | undefined,
  username: string,
  password: string,
): Promise<DirectoryPerson> {
  // TRAP: docs/behaviour.md §12.41 — an empty password makes the user's bind an anonymous one, which
  // the server may accept: refused here, before anything is sent.
  if (password === "") throw new DirectoryError("EMPTY_PASSWORD", "The password is empty.");
  if (username === "") throw new DirectoryError("NO_SUCH_USER", "The user name is empty.");
  const client = await connect(settings, bindPassword);
  try {
    const entry = await findPerson(client, settings, username);
    const subjectValue = firstValue(entry, settings.subjectAttribute);
    const subject = Buffer.isBuffer(subjectValue) ? formatGuid(subjectValue) : subjectValue;
    if (!subject) {
      throw new DirectoryError(
        "NO_SUBJECT",
        `The entry ${entry.dn} has no ${settings.subjectAttribute}: set the provider's subject attribute to one every user has (entryUUID, objectGUID).`,
      );
    }
    const groups =
      settings.groupMembership === "memberOf"
        ? textValues(entry, settings.memberOfAttribute)
        : await searchGroups(client, settings, entry.dn);
    try {
      await client.bind(entry.dn, password);
    } catch (error) {
      if (error instanceof InvalidCredentialsError) {
        throw new DirectoryError(
          "WRONG_PASSWORD",
          `The directory refused the password of ${entry.dn}.`,
        );
      }
      throw classify(error, settings, "binding as the user");
    }
    const email = firstValue(entry, settings.emailAttribute);
    const name = firstValue(entry, settings.usernameAttribute);
    return {
      dn: entry.dn,
      subject,
      username: (Buffer.isBuffer(name) ? name.toString("utf8") : name) || username,
      email: Buffer.isBuffer(email) ? email.toString("utf8") : email || undefined,
      groups,
    };
  } finally {
    await client.unbind().catch(() => {});
  }
}

/** Connects and binds the service account: the settings page's "Test" (throws a DirectoryError). */
export async function checkDirectory(settings: LdapSettings, bindPassword: string | undefined) {
  const client = await connect(settings, bindPassword);
  await client.unbind().catch(() => {});
}
