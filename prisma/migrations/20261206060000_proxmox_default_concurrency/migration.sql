-- Proxmox connections read nodes side by side by default (docs/behaviour.md §3.7): 16 requests per
-- connection instead of 4. Saving a connection used to store the old default of 4 whether or not
-- anyone chose it, so a stored 4 on a Proxmox connection is dropped and the default applies; the
-- per-node limit (2) still protects each node. Any other stored value was chosen and is kept.
UPDATE "connections"
SET "settings" = "settings" - 'maxConcurrentRequests'
WHERE "kind" = 'PROXMOX' AND "settings" -> 'maxConcurrentRequests' = '4'::jsonb;
