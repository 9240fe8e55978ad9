// A real OpenLDAP server (Debian's slapd) for the directory sign-in tests: started on free ports
// with its own data directory and configuration, seeded with people and groups, serving ldap://
// (with StartTLS) and ldaps:// on a private CA, and removed when the test is done. Each call is its
// own server, so test files running in parallel never share one.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { access, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createTestCertificates } from "@hyperlens/hyper-http/testing";
import { Attribute, Change, Client } from "ldapts";

const SLAPD = "/usr/sbin/slapd";
const SLAPADD = "/usr/sbin/slapadd";
const SCHEMA_DIR = "/etc/ldap/schema";
const MODULE_DIR = "/usr/lib/ldap";

/** A person in the test directory (an inetOrgPerson under ou=people). */
export interface DirectoryPerson {
  uid: string;
  password: string;
  mail?: string;
  /** A free attribute for filters that narrow who may sign in (e.g. staff / contractor). */
  employeeType?: string;
}

/** A static group (groupOfNames under ou=groups), its members named by uid. */
export interface DirectoryGroup {
  cn: string;
  members: string[];
}

/** A running slapd and what a client needs to reach it. */
export interface TestDirectory {
  /** ldap://127.0.0.1:port, which offers StartTLS. */
  ldapUrl: string;
  /** ldaps://127.0.0.1:port. */
  ldapsUrl: string;
  /** The CA that signed the server's certificate (for `localhost` and 127.0.0.1). */
  caPem: string;
  /** The CA of another, unrelated authority: a client trusting only it must refuse the server. */
  foreignCaPem: string;
  baseDn: string;
  peopleDn: string;
  groupsDn: string;
  /** The read-only service account the provider binds as, and its password. */
  serviceDn: string;
  servicePassword: string;
  personDn(uid: string): string;
  groupDn(cn: string): string;
  /** Adds or removes a group member as the directory's administrator (takes effect at once). */
  addMember(group: string, uid: string): Promise<void>;
  removeMember(group: string, uid: string): Promise<void>;
  /** Renames a person (new uid, so a new DN); their entryUUID stays. */
  renamePerson(uid: string, newUid: string): Promise<void>;
  /** Sets a person's password as the administrator. */
  setPassword(uid: string, password: string): Promise<void>;
  /** Stops slapd and removes its directory. */
  close(): Promise<void>;
}

/** Why the LDAP suites fail on a machine without slapd, and how to fix it. */
export const SLAPD_MISSING_MESSAGE =
  "The LDAP tests run Debian's real OpenLDAP server, and slapd is not installed here " +
  `(${SLAPD}). Install it with: apt-get install -y slapd ldap-utils (CI's .ci/run does).`;

const BASE_DN = "dc=example,dc=org";
const ROOT_DN = `cn=admin,${BASE_DN}`;
const ROOT_PASSWORD = "root-secret-of-the-test-directory";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function seedLdif(
  people: readonly DirectoryPerson[],
  groups: readonly DirectoryGroup[],
  service: { dn: string; password: string },
): string {
  const entries = [
    [
      `dn: ${BASE_DN}`,
      "objectClass: dcObject",
      "objectClass: organization",
      "dc: example",
      "o: Example",
    ],
    [`dn: ou=people,${BASE_DN}`, "objectClass: organizationalUnit", "ou: people"],
    [`dn: ou=groups,${BASE_DN}`, "objectClass: organizationalUnit", "ou: groups"],
    [`dn: ou=services,${BASE_DN}`, "objectClass: organizationalUnit", "ou: services"],
    [
      `dn: ${service.dn}`,
      "objectClass: organizationalRole",
      "objectClass: simpleSecurityObject",
      "cn: hyperlens",
      `userPassword: ${service.password}`,
    ],
    ...people.map((p) => [
      `dn: uid=${p.uid},ou=people,${BASE_DN}`,
      "objectClass: inetOrgPerson",
      `uid: ${p.uid}`,
      `cn: ${p.uid}`,
      `sn: ${p.uid}`,
      ...(p.mail ? [`mail: ${p.mail}`] : []),
      ...(p.employeeType ? [`employeeType: ${p.employeeType}`] : []),
      `userPassword: ${p.password}`,
    ]),
    ...groups.map((g) => [
      `dn: cn=${g.cn},ou=groups,${BASE_DN}`,
      "objectClass: groupOfNames",
      `cn: ${g.cn}`,
      // groupOfNames needs a member: an empty group names the directory itself.
      ...(g.members.length
        ? g.members.map((uid) => `member: uid=${uid},ou=people,${BASE_DN}`)
        : [`member: ${BASE_DN}`]),
    ]),
  ];
  return `${entries.map((lines) => lines.join("\n")).join("\n\n")}\n`;
}

function slapdConf(dir: string): string {
  return [
    ...["core", "cosine", "nis", "inetorgperson", "dyngroup"].map(
      (schema) => `include ${SCHEMA_DIR}/${schema}.schema`,
    ),
    `modulepath ${MODULE_DIR}`,
    "moduleload back_mdb",
    "moduleload dynlist",
    `pidfile ${join(dir, "slapd.pid")}`,
    `TLSCACertificateFile ${join(dir, "ca.pem")}`,
    `TLSCertificateFile ${join(dir, "server.pem")}`,
    `TLSCertificateKeyFile ${join(dir, "server.key")}`,
    // Like many Active Directory servers, accept a bind with a name and an empty password as an
    // anonymous bind, so the client's refusal of empty passwords is tested against the real trap.
    "allow bind_anon_dn",
    "database mdb",
    `suffix "${BASE_DN}"`,
    `rootdn "${ROOT_DN}"`,
    `rootpw ${ROOT_PASSWORD}`,
    `directory ${join(dir, "data")}`,
    "maxsize 10485760",
    // Passwords are for binding only; everything else is readable by a bound account, nothing by
    // an anonymous one (so the service account must really bind).
    "access to attrs=userPassword by self write by anonymous auth by * none",
    "access to * by users read by * none",
    // memberOf computed from the groups' member values, as Active Directory reports it.
    "overlay dynlist",
    "dynlist-attrset groupOfURLs memberURL member+memberOf@groupOfNames",
    "",
  ].join("\n");
}

async function isReachable(port: number): Promise<boolean> {
  const client = new Client({ url: `ldap://127.0.0.1:${port}`, connectTimeout: 500, timeout: 500 });
  try {
    await client.bind(ROOT_DN, ROOT_PASSWORD);
    return true;
  } catch {
    return false;
  } finally {
    await client.unbind().catch(() => {});
  }
}

/**
 * Starts slapd with the given people and groups (plus a service account). Fails with
 * {@link SLAPD_MISSING_MESSAGE} when slapd is not installed: the suites never skip silently.
 */
export async function startTestDirectory(seed: {
  people: readonly DirectoryPerson[];
  groups: readonly DirectoryGroup[];
  /** Where slapd is; Debian's place unless a test says otherwise. */
  slapd?: string;
}): Promise<TestDirectory> {
  const slapd = seed.slapd ?? SLAPD;
  try {
    await access(slapd);
  } catch {
    throw new Error(SLAPD_MISSING_MESSAGE);
  }
  const dir = await mkdtemp(join(tmpdir(), "hyperlens-slapd-"));
  const service = { dn: `cn=hyperlens,ou=services,${BASE_DN}`, password: "service-password" };
  const [tls, foreign] = await Promise.all([createTestCertificates(), createTestCertificates()]);
  await Promise.all([
    writeFile(join(dir, "ca.pem"), tls.ca.cert),
    writeFile(join(dir, "server.pem"), tls.caSigned.cert),
    writeFile(join(dir, "server.key"), tls.caSigned.key, { mode: 0o600 }),
    writeFile(join(dir, "slapd.conf"), slapdConf(dir)),
    writeFile(join(dir, "seed.ldif"), seedLdif(seed.people, seed.groups, service)),
  ]);
  await mkdir(join(dir, "data"));
  await promisify(execFile)(SLAPADD, ["-f", join(dir, "slapd.conf"), "-l", join(dir, "seed.ldif")]);

  let child: ChildProcess | undefined;
  let ports: [number, number] = [0, 0];
  const output: string[] = [];
  // A port found free can be taken before slapd binds it (files run in parallel): try again.
  for (let attempt = 0; attempt < 5 && !child; attempt++) {
    ports = [await freePort(), await freePort()];
    const started = spawn(
      slapd,
      [
        "-f",
        join(dir, "slapd.conf"),
        "-h",
        `ldap://127.0.0.1:${ports[0]}/ ldaps://127.0.0.1:${ports[1]}/`,
        "-d",
        "0",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    started.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    started.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    const exited = new Promise<null>((resolve) => started.once("exit", () => resolve(null)));
    let isUp = false;
    for (let wait = 0; wait < 100 && started.exitCode === null && !isUp; wait++) {
      isUp = await isReachable(ports[0]);
      if (!isUp) await Promise.race([exited, new Promise((r) => setTimeout(r, 50))]);
    }
    if (isUp) child = started;
    else {
      started.kill("SIGKILL");
      await exited;
    }
  }
  if (!child) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`slapd did not start:\n${output.join("")}`);
  }
  const running = child;
  const stopped = new Promise((resolve) => running.once("exit", resolve));

  const personDn = (uid: string) => `uid=${uid},ou=people,${BASE_DN}`;
  const groupDn = (cn: string) => `cn=${cn},ou=groups,${BASE_DN}`;
  const asRoot = async (work: (client: Client) => Promise<void>) => {
    const client = new Client({ url: `ldap://127.0.0.1:${ports[0]}` });
    try {
      await client.bind(ROOT_DN, ROOT_PASSWORD);
      await work(client);
    } finally {
      await client.unbind();
    }
  };
  const changeMember = (operation: "add" | "delete", group: string, uid: string) =>
    asRoot((client) =>
      client.modify(
        groupDn(group),
        new Change({
          operation,
          modification: new Attribute({ type: "member", values: [personDn(uid)] }),
        }),
      ),
    );

  return {
    ldapUrl: `ldap://127.0.0.1:${ports[0]}`,
    ldapsUrl: `ldaps://127.0.0.1:${ports[1]}`,
    caPem: tls.ca.cert,
    foreignCaPem: foreign.ca.cert,
    baseDn: BASE_DN,
    peopleDn: `ou=people,${BASE_DN}`,
    groupsDn: `ou=groups,${BASE_DN}`,
    serviceDn: service.dn,
    servicePassword: service.password,
    personDn,
    groupDn,
    addMember: (group, uid) => changeMember("add", group, uid),
    removeMember: (group, uid) => changeMember("delete", group, uid),
    renamePerson: (uid, newUid) =>
      asRoot(async (client) => {
        await client.modifyDN(personDn(uid), personDn(newUid));
      }),
    setPassword: (uid, password) =>
      asRoot((client) =>
        client.modify(
          personDn(uid),
          new Change({
            operation: "replace",
            modification: new Attribute({ type: "userPassword", values: [password] }),
          }),
        ),
      ),
    close: async () => {
      running.kill("SIGTERM");
      await stopped;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
