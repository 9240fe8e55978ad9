-- The list's search finds guests with an address inside a subnet and by a tag (docs/behaviour.md
-- §9.43). Each address gets a fixed-width key ("4" + 8 hex digits, "6" + 32) whose text order is
-- its numeric order, so a subnet is one range on an index on PGlite and PostgreSQL alike; the sync
-- writes it with every address row from now on.
ALTER TABLE "ip_addresses" ADD COLUMN "addressKey" TEXT;
CREATE INDEX "ip_addresses_address_key_idx" ON "ip_addresses"("addressKey");
CREATE INDEX "virtual_machines_tags_idx" ON "virtual_machines" USING GIN ("tags");

-- Addresses stored before: the same key, from PostgreSQL's own parser. Text that is not a plain
-- address (a zone id, a subnet, anything rejected as invalid) keeps no key, as the sync writes it.
CREATE FUNCTION pg_temp.hyperlens_address_key(address TEXT) RETURNS TEXT LANGUAGE plpgsql AS $$
DECLARE
  parsed INET;
BEGIN
  IF address !~ '^[0-9A-Fa-f.:]+$' THEN
    RETURN NULL;
  END IF;
  parsed := address::INET;
  RETURN family(parsed)::TEXT || encode(substring(inet_send(parsed) FROM 5), 'hex');
EXCEPTION WHEN OTHERS THEN
  RETURN NULL;
END;
$$;
UPDATE "ip_addresses" SET "addressKey" = pg_temp.hyperlens_address_key("address");
