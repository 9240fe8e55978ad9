-- The lease holder's process identity (boot id, pid namespace, pid, start time), so a server on the
-- same machine can tell that the holder was killed and take the lease over at once instead of
-- joining its dead run until the lease expires. Leases taken before this migration have none and
-- simply expire as before.
ALTER TABLE "sync_leases" ADD COLUMN "holderProcess" TEXT;
