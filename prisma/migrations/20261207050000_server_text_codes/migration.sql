-- Server text as codes and parameters beside the English (docs/behaviour.md §11.4), so the web can
-- show it in the viewer's language. Rows written before stay English only (null here).
ALTER TABLE "connections" ADD COLUMN "lastSyncMessageTexts" JSONB;
ALTER TABLE "ip_addresses" ADD COLUMN "rejectReasonText" JSONB;
ALTER TABLE "sync_runs" ADD COLUMN "messageTexts" JSONB;
