// Address rules as administrators change them (docs/behaviour.md §10.9): checked field by field,
// stored, applied at once to the stored inventory (no sync, no hypervisor asked) and audited, in
// one transaction; and previewed the same way without writing.
import { Prisma, type PrismaClient } from "@hyperlens/db";
import { type AddressRules, addressRuleProblems, DEFAULT_ADDRESS_RULES } from "@hyperlens/shared";
import {
  applyRulesChange,
  compiledAddressRules,
  GLOBAL_ADDRESS_RULES_KEY,
  previewRulesChange,
  type RulesChangeSummary,
  type RulesTarget,
  readGlobalAddressRules,
} from "@hyperlens/sync";
import { ValidationError } from "../errors.ts";
import { type AuditActor, recordAudit } from "./audit.ts";

type Db = Prisma.TransactionClient;

/** A rules change on a large inventory rewrites many rows: longer than Prisma's 5 s default. */
const APPLY_TRANSACTION = { timeout: 300_000, maxWait: 30_000 };

function checked(rules: AddressRules): AddressRules {
  const problems = addressRuleProblems(rules);
  if (problems.length) throw ValidationError.of(problems);
  return rules;
}

/** The connections that follow the global rules, judged by `rules`. */
async function inheritingTargets(db: Db, rules: AddressRules): Promise<RulesTarget[]> {
  const connections = await db.connection.findMany({
    where: { addressRules: { equals: Prisma.DbNull } },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  const compiled = compiledAddressRules(rules);
  return connections.map((c) => ({ connectionId: c.id, rules: compiled }));
}

/** What the global rules (null: the shipped ones) would change on the connections that follow them. */
export async function previewGlobalAddressRules(
  prisma: PrismaClient,
  rules: AddressRules | null,
): Promise<RulesChangeSummary> {
  const next = rules ? checked(rules) : DEFAULT_ADDRESS_RULES;
  return previewRulesChange(prisma, await inheritingTargets(prisma, next));
}

/** What a connection's own rules (null: the global ones again) would change on its guests. */
export async function previewConnectionAddressRules(
  prisma: PrismaClient,
  connectionId: string,
  rules: AddressRules | null,
): Promise<RulesChangeSummary> {
  const next = rules ? checked(rules) : await readGlobalAddressRules(prisma);
  return previewRulesChange(prisma, [{ connectionId, rules: compiledAddressRules(next) }]);
}

/** Told, per connection, that its change feed advanced once the change has committed. */
export type FeedAdvanced = (connectionId: string) => void;

function announce(
  onFeedAdvanced: FeedAdvanced,
  summary: RulesChangeSummary,
  connectionIds: string[],
) {
  if (summary.changedVmCount === 0) return;
  for (const id of connectionIds) onFeedAdvanced(id);
}

/** Saves the global rules (null: back to the shipped ones) and applies them at once. */
export async function saveGlobalAddressRules(
  prisma: PrismaClient,
  onFeedAdvanced: FeedAdvanced,
  rules: AddressRules | null,
  actor: AuditActor | null,
): Promise<RulesChangeSummary> {
  const next = rules ? checked(rules) : null;
  let targets: RulesTarget[] = [];
  const summary = await prisma.$transaction(async (tx) => {
    const before = await readGlobalAddressRules(tx);
    if (next) {
      const value = next as unknown as Prisma.InputJsonValue;
      await tx.appSetting.upsert({
        where: { key: GLOBAL_ADDRESS_RULES_KEY },
        create: { key: GLOBAL_ADDRESS_RULES_KEY, value },
        update: { value },
      });
    } else {
      await tx.appSetting.deleteMany({ where: { key: GLOBAL_ADDRESS_RULES_KEY } });
    }
    targets = await inheritingTargets(tx, next ?? DEFAULT_ADDRESS_RULES);
    await recordAudit(tx, actor, {
      action: next ? "address_rules.global.set" : "address_rules.global.reset",
      targetType: "settings",
      targetId: GLOBAL_ADDRESS_RULES_KEY,
      details: { before, after: next ?? DEFAULT_ADDRESS_RULES } as unknown as Prisma.InputJsonValue,
    });
    return applyRulesChange(tx, targets, new Date());
  }, APPLY_TRANSACTION);
  announce(
    onFeedAdvanced,
    summary,
    targets.map((t) => t.connectionId),
  );
  return summary;
}

/** Saves a connection's own rules (null: it follows the global ones again) and applies them at once. */
export async function saveConnectionAddressRules(
  prisma: PrismaClient,
  onFeedAdvanced: FeedAdvanced,
  connectionId: string,
  rules: AddressRules | null,
  actor: AuditActor | null,
): Promise<RulesChangeSummary> {
  const next = rules ? checked(rules) : null;
  const summary = await prisma.$transaction(async (tx) => {
    const connection = await tx.connection.findUniqueOrThrow({
      where: { id: connectionId },
      select: { addressRules: true },
    });
    await tx.connection.update({
      where: { id: connectionId },
      data: { addressRules: next ? (next as unknown as Prisma.InputJsonValue) : Prisma.DbNull },
    });
    const effective = next ?? (await readGlobalAddressRules(tx));
    await recordAudit(tx, actor, {
      action: next ? "address_rules.connection.set" : "address_rules.connection.inherit",
      targetType: "connection",
      targetId: connectionId,
      details: {
        before: connection.addressRules,
        after: next,
      } as unknown as Prisma.InputJsonValue,
    });
    return applyRulesChange(
      tx,
      [{ connectionId, rules: compiledAddressRules(effective) }],
      new Date(),
    );
  }, APPLY_TRANSACTION);
  announce(onFeedAdvanced, summary, [connectionId]);
  return summary;
}
