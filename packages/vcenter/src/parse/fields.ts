// Field schemas shared by the parsers. Optional fields fall back to undefined when a server sends
// something unexpected there: one odd value must not make a whole inventory unreadable.
import { z } from "zod";

/** A string that is optional, and ignored when it is not a string. */
export const optionalString = z.string().optional().catch(undefined);

/** A non-negative integer that is optional, and ignored when it is anything else. */
export const optionalCount = z.number().int().nonnegative().optional().catch(undefined);

/** A boolean that is optional, and ignored when it is anything else. */
export const optionalBoolean = z.boolean().optional().catch(undefined);

/** A managed-object reference such as `vm-1049`, `host-1013`, `domain-c1006`: required, not blank. */
export const moref = z.string().trim().min(1);
