-- User names are case-insensitive (sign-in matches lower(username) exactly, never as a pattern),
-- so they must be unique that way. Names that already differ only in case: the oldest account
-- keeps its name, each other one is renamed to "<name>-<first 8 characters of its id>" (still a
-- valid name, at most 64 characters) and the rename is written to the audit log, so an
-- administrator can tell its owner. Before this, sign-in picked one of them at random.
WITH "renamed" AS (
  UPDATE "users"
  SET "username" = left(u."username", 55) || '-' || left(u."id"::text, 8), "updatedAt" = now()
  FROM (
    SELECT "id", "username",
           row_number() OVER (PARTITION BY lower("username") ORDER BY "createdAt", "id") AS "rank"
    FROM "users"
  ) AS u
  WHERE "users"."id" = u."id" AND u."rank" > 1
  RETURNING "users"."id", u."username" AS "oldName", "users"."username" AS "newName"
)
INSERT INTO "audit_logs" ("id", "action", "targetType", "targetId", "details")
SELECT gen_random_uuid(), 'user.rename', 'user', r."id"::text,
       jsonb_build_object('from', r."oldName", 'to', r."newName",
                          'reason', 'another user had the same name in a different case')
FROM "renamed" AS r;

-- Prisma's schema cannot express an index on an expression; this one lives here only.
CREATE UNIQUE INDEX "users_username_lower_key" ON "users" (lower("username"));

-- Sign-in counters are now keyed by user id and counted before the password is checked; the
-- old per-spelling counters mean nothing under the new rule.
DELETE FROM "login_throttles";
