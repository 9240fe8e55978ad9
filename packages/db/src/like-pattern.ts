// Prisma writes `contains`, `startsWith`, `endsWith` — and `equals` with `mode: "insensitive"` —
// as LIKE or ILIKE on PostgreSQL and sends the text as the pattern itself: a `%` or `_` a person
// typed matches anything, and a `\` escapes whatever follows it (PostgreSQL's default escape).

/**
 * `text` as a LIKE pattern that matches exactly that text: `%`, `_` and the escape character `\`
 * each get a `\` before them. Use it for every string handed to a LIKE-backed Prisma filter.
 */
export function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}
