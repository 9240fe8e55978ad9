-- Addresses are stored lower-case (the sync normalizes them since this migration), so the list's
-- address search is a plain LIKE. Existing rows follow: where two rows of a guest's interface
-- differ only in case, the lower-case one (or else the first) stays; the next sync rewrites the
-- guest anyway, since its fingerprint now covers the lower-case form.
DELETE FROM "ip_addresses" AS a
WHERE a."address" <> lower(a."address")
  AND EXISTS (
    SELECT 1 FROM "ip_addresses" AS b
    WHERE b."vmId" = a."vmId"
      AND b."interfaceName" = a."interfaceName"
      AND lower(b."address") = lower(a."address")
      AND b."id" <> a."id"
      AND (b."address" = lower(b."address") OR b."id" < a."id")
  );

UPDATE "ip_addresses" SET "address" = lower("address") WHERE "address" <> lower("address");
