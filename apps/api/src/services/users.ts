// User accounts: the one place their rules live, used by GraphQL, the CLI and the tests.
import type { Capability, PrismaClient } from "@hyperlens/db";
import { hashPassword, passwordProblem } from "../auth/passwords.ts";
import type { Viewer } from "../auth/viewer.ts";
import { recordAudit } from "./audit.ts";
import { ValidationError } from "./errors.ts";

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export interface NewUser {
  username: string;
  password: string;
  capabilities?: Capability[];
  isAdmin?: boolean;
}

/** Creates a user after checking the name and password; names are unique, case-insensitively. */
export async function createUser(prisma: PrismaClient, input: NewUser, actor: Viewer | null) {
  const username = input.username.trim();
  if (!USERNAME.test(username)) {
    throw new ValidationError(
      "Use 1–64 letters, digits, dots, dashes, underscores or @, starting with a letter or digit.",
      "username",
    );
  }
  const problem = passwordProblem(input.password);
  if (problem) throw new ValidationError(problem, "password");
  const existing = await prisma.user.findFirst({
    where: { username: { equals: username, mode: "insensitive" } },
  });
  if (existing)
    throw new ValidationError(`A user named ${existing.username} already exists.`, "username");
  const user = await prisma.user.create({
    data: {
      username,
      passwordHash: await hashPassword(input.password),
      capabilities: input.isAdmin
        ? []
        : [...new Set<Capability>(input.capabilities ?? ["VIEW_INVENTORY"])],
      isAdmin: input.isAdmin ?? false,
    },
  });
  await recordAudit(prisma, actor, {
    action: "user.create",
    targetType: "user",
    targetId: user.id,
    details: { username, isAdmin: user.isAdmin, capabilities: user.capabilities },
  });
  return user;
}

/** True once any user exists (first-run setup is over). */
export async function hasAnyUser(prisma: PrismaClient): Promise<boolean> {
  return (await prisma.user.count()) > 0;
}
