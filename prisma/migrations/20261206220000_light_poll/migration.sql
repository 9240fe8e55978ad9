-- Light polls (docs/behaviour.md §8.7) record a run, with this trigger, only when they changed something.
ALTER TYPE "SyncTrigger" ADD VALUE 'POLL';
ALTER TABLE "connections" ADD COLUMN "lastLightPollAt" TIMESTAMPTZ(3);
