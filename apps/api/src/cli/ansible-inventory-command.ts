// `hyperlens ansible-inventory --list | --host <name>`: Ansible's script-inventory protocol over
// GET /inventory/ansible of a running server (HYPERLENS_URL, HYPERLENS_TOKEN; the filter in
// HYPERLENS_INVENTORY_QUERY), for bin/hyperlens-inventory (docs/behaviour.md §14.14).
import { ANSIBLE_INVENTORY_PATH } from "../http/inventory-routes.ts";

/** The server could not be asked, or refused: the message says which and why. */
export class InventoryCommandError extends Error {
  override name = "InventoryCommandError";
}

/** What the command reads from the environment. */
export interface InventoryEnvironment {
  HYPERLENS_URL?: string | undefined;
  HYPERLENS_TOKEN?: string | undefined;
  HYPERLENS_INVENTORY_QUERY?: string | undefined;
}

async function fetchInventory(env: InventoryEnvironment): Promise<Response> {
  const base = env.HYPERLENS_URL;
  const token = env.HYPERLENS_TOKEN;
  if (!base || !token)
    throw new InventoryCommandError(
      "Set HYPERLENS_URL (e.g. https://hyperlens.example) and HYPERLENS_TOKEN (an API token holding VIEW_INVENTORY).",
    );
  let url: URL;
  try {
    url = new URL(ANSIBLE_INVENTORY_PATH, base);
  } catch {
    throw new InventoryCommandError(`HYPERLENS_URL is not an address: ${base}`);
  }
  url.search = (env.HYPERLENS_INVENTORY_QUERY ?? "").replace(/^\?/, "");
  let response: Response;
  try {
    response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new InventoryCommandError(
      `Could not reach Hyperlens at ${base}: ${cause ?? (error as Error).message}`,
    );
  }
  if (response.ok) return response;
  const body = (await response.json().catch(() => ({}))) as { errors?: { message?: string }[] };
  const message = body.errors?.[0]?.message ?? response.statusText;
  throw new InventoryCommandError(
    `Hyperlens at ${base} refused the inventory (${response.status}): ${message}`,
  );
}

/**
 * `--list`: the server's inventory, passed through as it streams; `--host <name>`: that host's
 * variables, `{}` for a name the inventory does not hold.
 */
export async function runAnsibleInventoryCommand(
  request: { list: true } | { host: string },
  env: InventoryEnvironment,
  out: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  const response = await fetchInventory(env);
  if ("list" in request) {
    if (response.body) {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (!out.write(chunk)) await new Promise((resolve) => out.once("drain", resolve));
      }
    }
    out.write("\n");
    return;
  }
  const inventory = (await response.json()) as {
    _meta?: { hostvars?: Record<string, unknown> };
  };
  const hostvars = inventory._meta?.hostvars ?? {};
  const vars = Object.hasOwn(hostvars, request.host) ? hostvars[request.host] : {};
  out.write(`${JSON.stringify(vars)}\n`);
}
