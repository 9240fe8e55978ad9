import { textError } from "@hyperlens/hyper-http";
import { serverText } from "@hyperlens/shared";
import { z } from "zod";
import { parseData } from "./envelope.ts";
import { looseBool, optional } from "./fields.ts";

/** A login ticket from `POST /access/ticket`. */
export interface ProxmoxTicket {
  ticket: string;
  username: string | null;
  csrfToken: string | null;
}

const schema = z.looseObject({
  ticket: z.string().min(1),
  username: optional(z.string()),
  CSRFPreventionToken: optional(z.string()),
  NeedTFA: optional(looseBool),
});

/**
 * Parses the body of `POST /api2/json/access/ticket`. A half ticket awaiting a second factor is
 * refused: a read-only inventory cannot answer a TFA challenge.
 */
export function parseTicket(body: unknown): ProxmoxTicket {
  const data = parseData(schema, body, "POST /access/ticket");
  if (data.NeedTFA) {
    throw textError(serverText("proxmoxNeedsTfa", {}), {
      errorClass: "auth",
      source: "Proxmox",
      method: "POST",
      path: "/api2/json/access/ticket",
    });
  }
  return {
    ticket: data.ticket,
    username: data.username ?? null,
    csrfToken: data.CSRFPreventionToken ?? null,
  };
}
