-- No statistics for a guest's `details`: no query compares the whole document (the one filter on
-- it follows a path, which these statistics do not estimate), yet they were half the ANALYZE the
-- engine runs after a large sync — 0.65 of 1.2 s after a 10,000-guest first sync on PGlite.
-- `prisma migrate diff` does not track statistics targets, so later migrations keep this.
ALTER TABLE "virtual_machines" ALTER COLUMN "details" SET STATISTICS 0;
