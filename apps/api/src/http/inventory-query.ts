// The query string of the inventory exports (GET /inventory/ansible, GET /sd/prometheus): the
// unified list's filter, read from parameters and turned into the same Prisma condition
// (schema/virtual-machine-filter.ts), and how a guest's primary address is chosen. Every refusal
// names the parameter it is about (docs/behaviour.md §14.12).
import { isIP } from "node:net";
import {
  CONFIRMATIONS,
  CONNECTION_KINDS,
  GUEST_KINDS,
  NAMED_LOCATION_FIELDS,
  POWER_STATES,
  type NeutralPowerState as PowerState,
} from "@hyperlens/shared";
import { ValidationError } from "../errors.ts";
import { decodeUuidGlobalID } from "../schema/global-ids.ts";
import { buildVmWhere } from "../schema/virtual-machine-filter.ts";
import { type Cidr, parseCidrList } from "./client-address.ts";

type FilterInput = NonNullable<Parameters<typeof buildVmWhere>[0]>;

/** Which address family a guest's primary address is taken from first. */
export type AddressFamily = "ipv4" | "ipv6";

/** How a guest's primary address is chosen among its accepted, current addresses. */
export interface AddressPreference {
  family: AddressFamily;
  /** Addresses in an earlier network first; those in none of them after every listed one. */
  subnets: readonly Cidr[];
}

/** A refused parameter: answered 400 with the parameter's name. */
export class InventoryQueryError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}

const LIST_PARAMETERS = {
  source: CONNECTION_KINDS,
  state: POWER_STATES,
  kind: GUEST_KINDS,
  confirmation: CONFIRMATIONS,
} as const;

const TEXT_PARAMETERS = [...NAMED_LOCATION_FIELDS, "search", "guestOs"] as const;

/** Yes-or-no fields of the filter: templates are left out (false) or listed alone (true). */
const BOOLEAN_PARAMETERS = ["isTemplate"] as const;

/** The filter's fields that make no sense for hosts to manage: tombstones are not hosts. */
const TOMBSTONE_PARAMETERS = ["includeRemoved", "changedSince"];

/** Every value of a repeatable parameter; `a=x&a=y` and `a=x,y` say the same. */
function listOf(params: URLSearchParams, name: string): string[] | undefined {
  const values = params
    .getAll(name)
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter(Boolean);
  return values.length ? values : undefined;
}

function enumList<const T extends readonly string[]>(
  params: URLSearchParams,
  name: string,
  allowed: T,
): T[number][] | undefined {
  const values = listOf(params, name)?.map((value) => value.toUpperCase());
  const wrong = values?.filter((value) => !allowed.includes(value));
  if (wrong?.length)
    throw new InventoryQueryError(
      name,
      `${name}: ${wrong.join(", ")} is not one of ${allowed.join(", ")}.`,
    );
  return values as T[number][] | undefined;
}

function connectionIds(params: URLSearchParams) {
  return listOf(params, "connectionId")?.map((id) => {
    try {
      return decodeUuidGlobalID(id);
    } catch {
      throw new InventoryQueryError(
        "connectionId",
        `connectionId: ${id} is not a connection id (the global id the GraphQL API gives a connection).`,
      );
    }
  });
}

/**
 * The unified list's filter from a query string. `defaultState`: the states listed when the
 * query names none (Prometheus: running guests only).
 */
function filterOf(params: URLSearchParams, defaultState?: readonly PowerState[]): FilterInput {
  for (const name of TOMBSTONE_PARAMETERS) {
    if (params.has(name))
      throw new InventoryQueryError(
        name,
        `${name} is not accepted here: the inventory lists the guests that exist now, never removed ones.`,
      );
  }
  const filter: FilterInput = {
    source: enumList(params, "source", LIST_PARAMETERS.source),
    state: enumList(params, "state", LIST_PARAMETERS.state) ?? (defaultState && [...defaultState]),
    kind: enumList(params, "kind", LIST_PARAMETERS.kind),
    confirmation: enumList(params, "confirmation", LIST_PARAMETERS.confirmation),
    connectionId: connectionIds(params),
    tags: listOf(params, "tags"),
  };
  for (const name of TEXT_PARAMETERS) {
    const values = params.getAll(name);
    if (values.length > 1) throw new InventoryQueryError(name, `${name}: give it at most once.`);
    filter[name] = values[0];
  }
  for (const name of BOOLEAN_PARAMETERS) {
    const values = params.getAll(name);
    if (values.length === 0) continue;
    if (values.length > 1 || !["true", "false"].includes(values[0] ?? ""))
      throw new InventoryQueryError(name, `${name}: give true or false, once.`);
    filter[name] = values[0] === "true";
  }
  return filter;
}

/**
 * `prefer` and `subnet` parameters over the server's default; undefined when neither states one:
 * the address rules' primary applies (docs/behaviour.md §10.9).
 */
function preferenceOf(
  params: URLSearchParams,
  fallback: AddressPreference | undefined,
): AddressPreference | undefined {
  const prefer = params.getAll("prefer");
  if (prefer.length > 1 || (prefer[0] !== undefined && !["ipv4", "ipv6"].includes(prefer[0])))
    throw new InventoryQueryError("prefer", "prefer: give ipv4 or ipv6, once.");
  const subnetText = params.getAll("subnet").join(",");
  const { networks, invalid } = parseCidrList(subnetText);
  if (invalid.length)
    throw new InventoryQueryError(
      "subnet",
      `subnet: ${invalid.join(", ")} is not a network in CIDR form like 10.0.0.0/8 or fd00::/8.`,
    );
  if (prefer.length === 0 && !params.has("subnet")) return fallback;
  return {
    family: (prefer[0] as AddressFamily | undefined) ?? fallback?.family ?? "ipv4",
    subnets: params.has("subnet") ? networks : (fallback?.subnets ?? []),
  };
}

/** What an export request asks for. */
export interface InventoryQuery {
  /** The unified list's condition (schema/virtual-machine-filter.ts), before visibility. */
  where: ReturnType<typeof buildVmWhere>;
  /** The request's or the server's order of addresses; undefined: the address rules' primary. */
  preference: AddressPreference | undefined;
  /** The query string as a canonical text: part of an ETag. */
  canonical: string;
}

/**
 * Reads an export's query string. `extra`: the parameters only this export takes (they are
 * checked by its caller); any other unknown parameter is refused.
 */
export function readInventoryQuery(
  params: URLSearchParams,
  options: {
    preference: AddressPreference | undefined;
    defaultState?: readonly PowerState[];
    extra?: readonly string[];
  },
): InventoryQuery {
  const known = new Set<string>([
    ...Object.keys(LIST_PARAMETERS),
    ...TEXT_PARAMETERS,
    ...BOOLEAN_PARAMETERS,
    ...TOMBSTONE_PARAMETERS,
    "connectionId",
    "tags",
    "prefer",
    "subnet",
    ...(options.extra ?? []),
  ]);
  for (const name of params.keys()) {
    if (!known.has(name))
      throw new InventoryQueryError(
        name,
        `Unknown parameter ${name}; known: ${[...known].filter((k) => !TOMBSTONE_PARAMETERS.includes(k)).join(", ")}.`,
      );
  }
  const filter = filterOf(params, options.defaultState);
  let where: InventoryQuery["where"];
  try {
    where = buildVmWhere(filter);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const parameter = (error.field ?? "").replace(/^filter\./, "");
    throw new InventoryQueryError(parameter, `${parameter}: ${error.message}`);
  }
  const canonical = [...params.entries()]
    .sort(([a, x], [b, y]) => (a === b ? x.localeCompare(y) : a.localeCompare(b)))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  return { where, preference: preferenceOf(params, options.preference), canonical };
}

/** The ports of `?port=` (repeatable), each 1–65535. */
export function portsOf(params: URLSearchParams): number[] {
  return (listOf(params, "port") ?? []).map((text) => {
    const port = Number(text);
    if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535)
      throw new InventoryQueryError("port", `port: ${text} is not a port number (1–65535).`);
    return port;
  });
}

/** An address's family, or undefined for text that is not an address. */
export function familyOf(address: string): AddressFamily | undefined {
  const version = isIP(address);
  return version === 4 ? "ipv4" : version === 6 ? "ipv6" : undefined;
}
