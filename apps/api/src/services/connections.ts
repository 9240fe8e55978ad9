// Connections to hypervisors: the one place their rules live (docs/behaviour.md §1), used by GraphQL, the CLI
// and the tests alike.
import {
  type Connection,
  type ConnectionKind,
  type Prisma,
  type PrismaClient,
  type SecretBox,
  SecretDecryptError,
} from "@hyperlens/db";
import {
  checkCaPem,
  checkHttpsUrl,
  checkTargetUrl,
  type TargetAddressPolicy,
} from "@hyperlens/hyper-http";
import { SECRET_PLACEHOLDER } from "@hyperlens/shared";
import type { Viewer } from "../auth/viewer.ts";
import { visibleConnections } from "../auth/visibility.ts";
import {
  type FieldProblem,
  NotFoundError,
  SecretUnreadableError,
  ValidationError,
} from "../errors.ts";
import { MAX_CONCURRENCY_SETTING, storedSettings } from "../sources/connection-settings.ts";
import { recordAudit } from "./audit.ts";
import {
  keptSecretTargetProblem,
  type SecretTarget,
  type SecretTrust,
  secretTargetOf,
  secretTrustOf,
} from "./secret-target.ts";

export const MIN_SYNC_INTERVAL_SECONDS = 60;
export const MAX_SYNC_INTERVAL_SECONDS = 7 * 24 * 3600;
const DEFAULT_SYNC_INTERVAL_SECONDS = 900;

/** What a save form sends; without `id` it creates, with `id` it edits. */
export interface ConnectionInput {
  id?: string | null;
  name: string;
  url: string;
  username: string;
  /** Proxmox: the token name after "!"; null or empty means password (ticket) login. */
  tokenId?: string | null;
  /** Blank or the placeholder keeps the stored secret on edit. */
  secret?: string | null;
  verifyTls?: boolean | null;
  caPem?: string | null;
  syncIntervalSeconds?: number | null;
  isActive?: boolean | null;
  /** Requests in flight at once to this hypervisor (1–16; default 16 for Proxmox, else 4). */
  maxConcurrentRequests?: number | null;
  /** Proxmox only: requests in flight at once to one node (1–16, default 2). */
  maxRequestsPerNode?: number | null;
  /** Seconds between light polls (docs/behaviour.md §8.7): 0 (off) or 5–3600, default 15. */
  lightPollSeconds?: number | null;
}

/** The shortest light-poll interval: below it a poll would barely end before the next. */
export const MIN_LIGHT_POLL_SECONDS = 5;
/** The longest light-poll interval; beyond it, a full sync interval does the job. */
export const MAX_LIGHT_POLL_SECONDS = 3600;

const USER_AT_REALM = /^[^@\s:]+@[^@\s:]+$/;
const TOKEN_NAME = /^[A-Za-z][A-Za-z0-9._-]{1,63}$/;

/** Kind-specific checks of the login fields. Returns [field, message] pairs. */
const LOGIN_RULES: Record<ConnectionKind, (input: ConnectionInput) => [string, string][]> = {
  PROXMOX: (input) => {
    const problems: [string, string][] = [];
    if (!USER_AT_REALM.test(input.username.trim())) {
      problems.push(["username", "Use user@realm, e.g. hyperlens@pve or root@pam."]);
    }
    const tokenId = input.tokenId?.trim();
    if (tokenId && !TOKEN_NAME.test(tokenId)) {
      problems.push([
        "tokenId",
        "A token name starts with a letter and has 2–64 letters, digits, . _ or -.",
      ]);
    }
    return problems;
  },
  VCD: (input) => {
    const username = input.username.trim();
    // TRAP: docs/behaviour.md §1 — Basic auth splits user:password at the first colon; a colon in the name breaks login.
    if (username.includes(":"))
      return [["username", "A Director user name cannot contain a colon."]];
    if (!USER_AT_REALM.test(username)) {
      return [["username", "Use user@org (provider administrators: user@System)."]];
    }
    return [];
  },
  VCENTER: (input) => {
    const username = input.username.trim();
    // TRAP: docs/behaviour.md §1 — Basic auth splits at the first colon; a colon in the name breaks login.
    if (username.includes(":"))
      return [["username", "A vCenter user name cannot contain a colon."]];
    return username === ""
      ? [["username", "Give the vCenter user, e.g. hyperlens@vsphere.local."]]
      : [];
  },
};

function isKeptSecret(secret: string | null | undefined): boolean {
  return (
    secret === undefined || secret === null || secret.trim() === "" || secret === SECRET_PLACEHOLDER
  );
}

function validate(kind: ConnectionKind, input: ConnectionInput, isNew: boolean): FieldProblem[] {
  const problems: [string, string][] = [];
  const name = input.name.trim();
  if (name.length < 1 || name.length > 100) problems.push(["name", "Use 1–100 characters."]);
  const urlProblem = checkHttpsUrl(input.url.trim());
  if (urlProblem) problems.push(["url", urlProblem]);
  problems.push(...LOGIN_RULES[kind](input));
  if (isNew && isKeptSecret(input.secret))
    problems.push(["secret", "Give the secret for the first save."]);
  if (input.secret && input.secret.length > 4096)
    problems.push(["secret", "The secret is too long."]);
  const caPem = input.caPem?.trim();
  if (caPem) {
    const caProblem = checkCaPem(caPem);
    if (caProblem) problems.push(["caPem", caProblem]);
  }
  const interval = input.syncIntervalSeconds;
  if (
    interval !== null &&
    interval !== undefined &&
    (!Number.isInteger(interval) ||
      interval < MIN_SYNC_INTERVAL_SECONDS ||
      interval > MAX_SYNC_INTERVAL_SECONDS)
  ) {
    problems.push([
      "syncIntervalSeconds",
      `Use a whole number of seconds from ${MIN_SYNC_INTERVAL_SECONDS} to ${MAX_SYNC_INTERVAL_SECONDS}.`,
    ]);
  }
  problems.push(...concurrencyProblems(kind, input));
  const poll = input.lightPollSeconds;
  if (
    poll !== null &&
    poll !== undefined &&
    (!Number.isInteger(poll) ||
      (poll !== 0 && (poll < MIN_LIGHT_POLL_SECONDS || poll > MAX_LIGHT_POLL_SECONDS)))
  ) {
    problems.push([
      "lightPollSeconds",
      `Use 0 (off) or a whole number of seconds from ${MIN_LIGHT_POLL_SECONDS} to ${MAX_LIGHT_POLL_SECONDS}.`,
    ]);
  }
  return problems.map(([field, message]) => ({ field, message }));
}

/** The per-connection and per-node limits (docs/behaviour.md §3.7). */
function concurrencyProblems(kind: ConnectionKind, input: ConnectionInput): [string, string][] {
  const problems: [string, string][] = [];
  const isOutOfRange = (value: number | null | undefined) =>
    value !== null &&
    value !== undefined &&
    (!Number.isInteger(value) || value < 1 || value > MAX_CONCURRENCY_SETTING);
  if (isOutOfRange(input.maxConcurrentRequests)) {
    problems.push([
      "maxConcurrentRequests",
      `Use a whole number from 1 to ${MAX_CONCURRENCY_SETTING}.`,
    ]);
  }
  const perNode = input.maxRequestsPerNode;
  if (perNode !== null && perNode !== undefined && kind !== "PROXMOX") {
    problems.push([
      "maxRequestsPerNode",
      "Only Proxmox connections have a per-node limit: this server answers every request itself.",
    ]);
  } else if (isOutOfRange(perNode)) {
    problems.push([
      "maxRequestsPerNode",
      `Use a whole number from 1 to ${MAX_CONCURRENCY_SETTING} (pveproxy serves each node with 3 workers by default).`,
    ]);
  }
  return problems;
}

/**
 * Creates or edits a connection of a kind. Secrets are sealed; a kept secret is not touched.
 * `targets` is the server's outbound address policy (`services.targetPolicy`): an address that
 * resolves to loopback or link-local is refused on the `url` field unless it allows them.
 */
export async function saveConnection(
  prisma: PrismaClient,
  secrets: SecretBox,
  kind: ConnectionKind,
  input: ConnectionInput,
  actor: Viewer | null,
  targets: TargetAddressPolicy,
): Promise<Connection> {
  const { existing, fields, isSecretKept, newSecret } = await checkConnectionInput(
    prisma,
    kind,
    input,
    actor,
    targets,
  );
  return prisma.$transaction(async (tx) => {
    const connection = existing
      ? await updateConnection(tx, existing, fields, isSecretKept)
      : await tx.connection.create({ data: { kind, ...fields } });
    if (newSecret !== undefined) {
      const sealed = secrets.seal(newSecret, connection.id);
      await tx.connectionSecret.upsert({
        where: { connectionId: connection.id },
        create: { connectionId: connection.id, ...sealed },
        update: sealed,
      });
    }
    const changed = existing
      ? Object.keys(fields).filter(
          (key) =>
            String(fields[key as keyof typeof fields]) !==
            String(existing[key as keyof Connection]),
        )
      : Object.keys(fields);
    await recordAudit(tx, actor, {
      action: existing ? "connection.update" : "connection.create",
      targetType: "connection",
      targetId: connection.id,
      details: { kind, name: fields.name, changed, secretChanged: newSecret !== undefined },
    });
    return connection;
  });
}

/**
 * Every check a save makes, writing nothing: the fields a save would store, the row it would
 * edit, and the secret it would seal (undefined when the stored one is kept). Save and the Test of
 * unsaved input share it, so both refuse the same input with the same problems.
 */
export async function checkConnectionInput(
  prisma: PrismaClient,
  kind: ConnectionKind,
  input: ConnectionInput,
  actor: Viewer | null,
  targets: TargetAddressPolicy,
) {
  const existing = input.id
    ? await prisma.connection.findUnique({ where: { id: input.id } })
    : null;
  // TRAP: docs/behaviour.md §1 — an edit of a missing connection must not quietly create a new one.
  if (input.id && (!existing || existing.kind !== kind)) {
    throw new NotFoundError(`No ${kind} connection with id ${input.id} exists.`);
  }
  const problems = validate(kind, input, !existing);
  // TRAP: outbound policy (docs/operations.md) — Test and sync would reach this machine's own
  // services or the cloud metadata address; the name is resolved now and again at connect.
  const targetProblem = problems.some((p) => p.field === "url")
    ? null
    : await checkTargetUrl(input.url.trim(), targets);
  if (targetProblem) problems.push({ field: "url", message: targetProblem });
  const target = secretTargetOf(kind, input);
  const trust = secretTrustOf(input, existing);
  const isSecretKept = isKeptSecret(input.secret);
  // TRAP: docs/behaviour.md §1 — a kept secret re-pointed at another address or user, or with TLS trust loosened
  // (verification off, another CA), is sent to whoever is there or intercepts the traffic.
  const keptSecretProblem =
    existing && isSecretKept && keptSecretTargetProblem(existing, { ...target, ...trust });
  if (keptSecretProblem) problems.push(keptSecretProblem);
  const name = input.name.trim();
  // TRAP: docs/behaviour.md §7.18 — a clash with a connection the actor does not see would tell a
  // tenant what another tenant has; a name kept as it was never clashes.
  const clash =
    name !== existing?.name &&
    (await prisma.connection.findFirst({
      where: {
        kind,
        name,
        NOT: { id: existing?.id },
        AND: [actor ? visibleConnections(actor) : {}],
      },
      select: { id: true },
    }));
  if (clash)
    problems.push({ field: "name", message: `Another connection is already named ${name}.` });
  if (problems.length) throw ValidationError.of(problems);

  const fields = {
    name,
    ...target,
    // Director decides by the organization: System means a provider administrator.
    isProvider: kind === "VCD" && /@system$/i.test(input.username.trim()),
    ...trust,
    syncIntervalSeconds:
      input.syncIntervalSeconds ?? existing?.syncIntervalSeconds ?? DEFAULT_SYNC_INTERVAL_SECONDS,
    isActive: input.isActive ?? existing?.isActive ?? true,
    // Only what was ever set is stored: an edit must not freeze today's defaults into the row.
    settings: {
      ...(existing ? storedSettings(existing) : {}),
      ...(input.maxConcurrentRequests
        ? { maxConcurrentRequests: input.maxConcurrentRequests }
        : {}),
      ...(input.maxRequestsPerNode ? { maxRequestsPerNode: input.maxRequestsPerNode } : {}),
      ...(input.lightPollSeconds !== null && input.lightPollSeconds !== undefined
        ? { lightPollSeconds: input.lightPollSeconds }
        : {}),
    },
  };
  const newSecret = isSecretKept ? undefined : (input.secret ?? undefined);
  return { existing, fields, isSecretKept, newSecret };
}

/**
 * Writes an edit; one that keeps the stored secret lands only while the row's target and TLS
 * trust are the ones checked.
 */
async function updateConnection(
  tx: Prisma.TransactionClient,
  existing: SecretTarget & SecretTrust & { id: string },
  fields: Prisma.ConnectionUpdateManyMutationInput,
  isSecretKept: boolean,
): Promise<Connection> {
  if (!isSecretKept) return tx.connection.update({ where: { id: existing.id }, data: fields });
  // TRAP: docs/behaviour.md §1 — an edit that re-pointed the row or changed its TLS trust after our check must not
  // lend it the stored secret (written back, ours would loosen the trust that secret came with).
  const { baseUrl, username, tokenId, verifyTls, caPem } = existing;
  const { count } = await tx.connection.updateMany({
    where: { id: existing.id, baseUrl, username, tokenId, verifyTls, caPem },
    data: fields,
  });
  if (count === 0) {
    throw ValidationError.of([
      {
        field: "secret",
        message: "The address, user or TLS trust was changed meanwhile: give the secret again.",
      },
    ]);
  }
  return tx.connection.findUniqueOrThrow({ where: { id: existing.id } });
}

/** The stored connection; a NotFoundError when there is none with that id. */
export async function findConnection(prisma: PrismaClient, id: string): Promise<Connection> {
  const connection = await prisma.connection.findUnique({ where: { id } });
  if (!connection) throw new NotFoundError(`No connection with id ${id} exists.`);
  return connection;
}

/** Deletes a connection and, explicitly, every inventory row it owns. */
export async function deleteConnection(
  prisma: PrismaClient,
  id: string,
  actor: Viewer | null,
): Promise<Connection> {
  const connection = await findConnection(prisma, id);
  await prisma.$transaction(async (tx) => {
    // TRAP: docs/behaviour.md §1 — rows are deleted by name, not left to a cascade that a schema change could drop.
    const vmIds = (
      await tx.virtualMachine.findMany({ where: { connectionId: id }, select: { id: true } })
    ).map((v) => v.id);
    await tx.ipAddress.deleteMany({ where: { vmId: { in: vmIds } } });
    await tx.nic.deleteMany({ where: { vmId: { in: vmIds } } });
    await tx.disk.deleteMany({ where: { vmId: { in: vmIds } } });
    await tx.vmEvent.deleteMany({ where: { vmId: { in: vmIds } } });
    await tx.virtualMachine.deleteMany({ where: { connectionId: id } });
    await tx.hypervisorNode.deleteMany({ where: { connectionId: id } });
    await tx.edgeGateway.deleteMany({ where: { connectionId: id } });
    await tx.syncRun.deleteMany({ where: { connectionId: id } });
    await tx.syncLease.deleteMany({ where: { connectionId: id } });
    await tx.connectionSecret.deleteMany({ where: { connectionId: id } });
    await tx.connection.delete({ where: { id } });
    await recordAudit(tx, actor, {
      action: "connection.delete",
      targetType: "connection",
      targetId: id,
      details: { kind: connection.kind, name: connection.name },
    });
  });
  return connection;
}

/** The decrypted secret of a connection, for the sync and test services only. */
export async function readConnectionSecret(
  prisma: PrismaClient,
  secrets: SecretBox,
  connectionId: string,
) {
  const row = await prisma.connectionSecret.findUnique({ where: { connectionId } });
  if (!row) throw new NotFoundError("This connection has no stored secret; edit it and give one.");
  try {
    return secrets.open(row.ciphertext, connectionId);
  } catch (error) {
    // Not an internal fault: the administrator can fix it, and Test and sync must say how.
    if (error instanceof SecretDecryptError) throw SecretUnreadableError.from(error);
    throw error;
  }
}
