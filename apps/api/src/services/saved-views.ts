// Saved views of the Servers page (docs/behaviour.md §9.47): a name and the page's query string,
// each the property of one user. Nobody else reads, renames or deletes it: another user's view
// answers NOT_FOUND, exactly as an id that names nothing.
import { Prisma, type PrismaClient } from "@hyperlens/db";
import { SAVED_VIEW_NAME_MAX, savedViewQueryProblem } from "@hyperlens/shared";
import { NotFoundError, ValidationError } from "../errors.ts";

/** The views a user is shown: their own, and only theirs — administrators' included. */
export function ownViews(userId: string): Prisma.SavedViewWhereInput {
  return { userId };
}

function viewName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > SAVED_VIEW_NAME_MAX)
    throw new ValidationError(`Use 1–${SAVED_VIEW_NAME_MAX} characters.`, "name");
  return trimmed;
}

function viewQuery(query: string): string {
  const problem = savedViewQueryProblem(query);
  if (problem !== null) throw new ValidationError(problem, "query");
  return query;
}

/** The (userId, lower(name)) unique index refuses a second view of one name, also when two saves race. */
function refuseDuplicate(name: string) {
  return (error: unknown): never => {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
      throw new ValidationError(`You already have a view named ${name}.`, "name");
    throw error;
  };
}

/** Saves the query string under a new name. */
export function saveView(
  prisma: PrismaClient,
  userId: string,
  input: { name: string; query: string },
) {
  const name = viewName(input.name);
  const query = viewQuery(input.query);
  return prisma.savedView.create({ data: { userId, name, query } }).catch(refuseDuplicate(name));
}

async function ownView(prisma: PrismaClient, userId: string, id: string) {
  // TRAP: docs/behaviour.md §9.47 — looking a view up by id alone would let anyone rename or delete it.
  const view = await prisma.savedView.findFirst({ where: { id, AND: [ownViews(userId)] } });
  if (!view) throw new NotFoundError("No such saved view.");
  return view;
}

/** Gives one of the user's views another name. */
export async function renameView(prisma: PrismaClient, userId: string, id: string, name: string) {
  const view = await ownView(prisma, userId, id);
  const newName = viewName(name);
  return prisma.savedView
    .update({ where: { id: view.id }, data: { name: newName } })
    .catch(refuseDuplicate(newName));
}

/** Deletes one of the user's views; answers its id. */
export async function deleteView(prisma: PrismaClient, userId: string, id: string) {
  const view = await ownView(prisma, userId, id);
  await prisma.savedView.delete({ where: { id: view.id } });
  return view.id;
}
