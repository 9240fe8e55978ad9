-- Connection names are unique among the connections a person sees, no longer across the install
-- (docs/behaviour.md §7.18): a database-wide unique name told a tenant that another tenant, hidden
-- from them, already had a connection of that name. The index stays for look-ups by name.
DROP INDEX "connections_kind_name_key";
CREATE INDEX "connections_kind_name_idx" ON "connections"("kind", "name");
