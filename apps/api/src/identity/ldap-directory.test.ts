// The directory client against Debian's real OpenLDAP server (docs/behaviour.md §12): who it lets
// in, who it keeps out, and how it says why, over LDAPS and StartTLS with the directory's CA.
import { type AddressInfo, createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SLAPD_MISSING_MESSAGE, startTestDirectory, type TestDirectory } from "../testing/slapd.ts";
import {
  authenticateWithDirectory,
  checkDirectory,
  type DirectoryError,
  escapeFilterValue,
  formatGuid,
} from "./ldap-directory.ts";
import { type LdapSettings, ldapSettingsSchema } from "./ldap-settings.ts";

let directory: TestDirectory;

beforeAll(async () => {
  directory = await startTestDirectory({
    people: [
      {
        uid: "alice",
        password: "alice-password",
        mail: "alice@example.org",
        employeeType: "staff",
      },
      { uid: "bob", password: "bob-password", employeeType: "contractor" },
      { uid: "admin", password: "admin-password", employeeType: "staff" },
      // Two entries answer to one e-mail address (an account copied into another place).
      { uid: "carol", password: "carol-password", mail: "shared@example.org" },
      { uid: "dave", password: "carol-password", mail: "shared@example.org" },
    ],
    groups: [
      { cn: "hyperlens-admins", members: ["alice"] },
      { cn: "tenant-a", members: ["alice", "bob"] },
    ],
  });
});

afterAll(() => directory?.close());

function settings(more: Record<string, unknown> = {}): LdapSettings {
  return ldapSettingsSchema.parse({
    url: directory.ldapsUrl,
    caPem: directory.caPem,
    bindDn: directory.serviceDn,
    userBaseDn: directory.peopleDn,
    ...more,
  });
}

async function failure(promise: Promise<unknown>): Promise<DirectoryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error) || error.name !== "DirectoryError")
    throw new Error(`expected a DirectoryError, got ${String(error)}`);
  return error as DirectoryError;
}

describe("a sign-in against the directory", () => {
  it("finds the person, checks the password and reads a stable subject, the name, e-mail and groups", async () => {
    const person = await authenticateWithDirectory(
      settings(),
      directory.servicePassword,
      "alice",
      "alice-password",
    );
    expect(person).toMatchObject({
      dn: directory.personDn("alice"),
      username: "alice",
      email: "alice@example.org",
    });
    expect(person.subject).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(person.groups.sort()).toEqual([
      directory.groupDn("hyperlens-admins"),
      directory.groupDn("tenant-a"),
    ]);
  });

  it("reads groups by searching them with the user's DN when the directory has no memberOf", async () => {
    const person = await authenticateWithDirectory(
      settings({ groupMembership: "search", groupBaseDn: directory.groupsDn }),
      directory.servicePassword,
      "bob",
      "bob-password",
    );
    expect(person.groups).toEqual([directory.groupDn("tenant-a")]);
  });

  it("refuses a wrong password and an unknown user, both as a credential failure", async () => {
    const wrong = await failure(
      authenticateWithDirectory(settings(), directory.servicePassword, "alice", "bob-password"),
    );
    expect(wrong.failure).toBe("WRONG_PASSWORD");
    const unknown = await failure(
      authenticateWithDirectory(settings(), directory.servicePassword, "mallory", "x"),
    );
    expect(unknown.failure).toBe("NO_SUCH_USER");
  });

  it("refuses a name the filter finds more than one entry for, whichever password fits", async () => {
    const byMail = settings({ userFilter: "(&(objectClass=inetOrgPerson)(mail={username}))" });
    const error = await failure(
      authenticateWithDirectory(
        byMail,
        directory.servicePassword,
        "shared@example.org",
        "carol-password",
      ),
    );
    expect(error.failure).toBe("AMBIGUOUS_USER");
  });

  it("refuses an empty password before binding, though this server takes it as an anonymous bind", async () => {
    const error = await failure(
      authenticateWithDirectory(settings(), directory.servicePassword, "alice", ""),
    );
    expect(error.failure).toBe("EMPTY_PASSWORD");
  });

  it("keeps the subject when the person is renamed (the DN changes, entryUUID does not)", async () => {
    await directory.addMember("tenant-a", "admin");
    const before = await authenticateWithDirectory(
      settings(),
      directory.servicePassword,
      "admin",
      "admin-password",
    );
    await directory.renamePerson("admin", "root-admin");
    const after = await authenticateWithDirectory(
      settings(),
      directory.servicePassword,
      "root-admin",
      "admin-password",
    );
    expect(after.dn).not.toBe(before.dn);
    expect(after.subject).toBe(before.subject);
    expect(after.username).toBe("root-admin");
    await directory.renamePerson("root-admin", "admin");
  });
});

describe("a typed user name is a value, never filter syntax (RFC 4515)", () => {
  // Only staff may sign in: the injections below try to slip the contractor bob past that.
  const staffOnly = () =>
    settings({ userFilter: "(&(objectClass=inetOrgPerson)(uid={username})(employeeType=staff))" });

  it("escapes the five characters that are syntax", () => {
    expect(escapeFilterValue("a*b(c)d\\e\0f")).toBe("a\\2ab\\28c\\29d\\5ce\\00f");
  });

  it.each([
    ["bob)(|(employeeType=*", "bob-password"],
    ["admin)(|(uid=*", "bob-password"],
    ["*)(uid=*", "bob-password"],
    ["b*", "bob-password"],
    ["*", "alice-password"],
  ])("%s signs nobody in", async (username, password) => {
    const error = await failure(
      authenticateWithDirectory(staffOnly(), directory.servicePassword, username, password),
    );
    expect(["NO_SUCH_USER", "AMBIGUOUS_USER"]).toContain(error.failure);
  });

  it("still lets staff in through the same filter", async () => {
    const person = await authenticateWithDirectory(
      staffOnly(),
      directory.servicePassword,
      "alice",
      "alice-password",
    );
    expect(person.username).toBe("alice");
  });
});

describe("the connection to the directory", () => {
  it("upgrades ldap:// with StartTLS and verifies the certificate against the CA", async () => {
    const person = await authenticateWithDirectory(
      settings({ url: directory.ldapUrl }),
      directory.servicePassword,
      "alice",
      "alice-password",
    );
    expect(person.username).toBe("alice");
  });

  it("refuses a directory whose certificate another CA signed, over StartTLS and LDAPS", async () => {
    for (const url of [directory.ldapUrl, directory.ldapsUrl]) {
      const error = await failure(
        checkDirectory(settings({ url, caPem: directory.foreignCaPem }), directory.servicePassword),
      );
      expect(error.failure, url).toBe("TLS");
      expect(error.message).toMatch(/certificate .* was not signed by the configured CA/);
    }
  });

  it("refuses the directory's certificate when no CA is given and the system does not trust it", async () => {
    const error = await failure(
      checkDirectory(settings({ caPem: undefined }), directory.servicePassword),
    );
    expect(error.failure).toBe("TLS");
  });

  it("names a wrong service account password for the administrator", async () => {
    const error = await failure(checkDirectory(settings(), "not-the-service-password"));
    expect(error.failure).toBe("SERVICE_BIND");
    expect(error.message).toContain(directory.serviceDn);
    expect(error.message).not.toContain("not-the-service-password");
  });

  it("gives up on a directory that accepts the connection and never answers", async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      for (const url of [`ldap://127.0.0.1:${port}`, `ldaps://127.0.0.1:${port}`]) {
        const error = await failure(
          checkDirectory(settings({ url, timeoutMs: 500 }), directory.servicePassword),
        );
        expect(error.failure, url).toBe("TIMEOUT");
        expect(error.message).toContain("did not answer within 500 ms");
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("names a directory that is down", async () => {
    const url = "ldaps://127.0.0.1:1";
    const error = await failure(checkDirectory(settings({ url }), directory.servicePassword));
    expect(error.failure).toBe("UNREACHABLE");
    expect(error.message).toContain("127.0.0.1:1");
  });

  it("speaks plain ldap:// only when the settings accept clear-text passwords", async () => {
    const refused = ldapSettingsSchema.safeParse({
      url: directory.ldapUrl,
      startTls: false,
      bindDn: directory.serviceDn,
      userBaseDn: directory.peopleDn,
    });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toMatch(/clear text/);
    const person = await authenticateWithDirectory(
      settings({ url: directory.ldapUrl, startTls: false, allowUnencrypted: true }),
      directory.servicePassword,
      "alice",
      "alice-password",
    );
    expect(person.username).toBe("alice");
  });
});

describe("the test directory", () => {
  it("fails the suite, saying how to install slapd, where slapd is missing (never skips)", async () => {
    await expect(
      startTestDirectory({ people: [], groups: [], slapd: "/nonexistent/slapd" }),
    ).rejects.toThrow(SLAPD_MISSING_MESSAGE);
    expect(SLAPD_MISSING_MESSAGE).toContain("apt-get install -y slapd ldap-utils");
  });
});

describe("settings", () => {
  it("refuse a user filter without {username} or with unbalanced parentheses", () => {
    const base = { url: "ldaps://dc.example.com", bindDn: "cn=x", userBaseDn: "dc=example" };
    for (const userFilter of ["(uid=alice)", "(uid={username}", "uid={username}"]) {
      expect(ldapSettingsSchema.safeParse({ ...base, userFilter }).success, userFilter).toBe(false);
    }
    expect(ldapSettingsSchema.safeParse({ ...base, url: "https://dc.example.com" }).success).toBe(
      false,
    );
  });

  it("format an Active Directory objectGUID as AD shows it", () => {
    const bytes = Buffer.from("c9a1d2e3f4a5b6c7d8e9f0a1b2c3d4e5", "hex");
    expect(formatGuid(bytes)).toBe("e3d2a1c9-a5f4-c7b6-d8e9-f0a1b2c3d4e5");
  });
});
