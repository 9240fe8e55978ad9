// Ready-to-paste configuration for the tools that read the inventory from Hyperlens instead of the
// hypervisors (docs/api.md "Inventory exports", "Webhooks"). Every value is quoted for the
// language it lands in: a search typed on the Servers page must not become shell or YAML.
import type { SchemaType } from "../graphql/graphql.ts";

type VmFilter = SchemaType<"VirtualMachineFilter">;

/** What every snippet is built from. */
export interface SnippetInput {
  /** The address people reach Hyperlens at, e.g. https://hyperlens.example. */
  origin: string;
  /** A token to paste in, or undefined for a placeholder naming what to put there. */
  token: string | undefined;
  filter: VmFilter;
  /** Prometheus: the port each target is scraped on. */
  port: number;
}

const TOKEN_PLACEHOLDER = "hlk_your_token_here";

/**
 * The list's fields the exports refuse: they list the guests that exist now, never removed ones
 * (docs/behaviour.md §14.12).
 */
const NOT_EXPORTED: ReadonlySet<string> = new Set(["includeRemoved", "changedSince"]);

/** Whether the filter asks for something the exports never list (removed guests). */
export function asksForRemoved(filter: VmFilter): boolean {
  return filter.includeRemoved === true || Boolean(filter.changedSince);
}

/**
 * The Servers page's filter as the exports' query string (the same names as the GraphQL filter):
 * every field of it, yes-or-no ones (templates) too, but those the exports refuse.
 */
export function exportQuery(filter: VmFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) {
    if (NOT_EXPORTED.has(name)) continue;
    if (Array.isArray(value)) {
      if (value.length) params.set(name, value.join(","));
    } else if (typeof value === "boolean") {
      params.set(name, String(value));
    } else if (typeof value === "string" && value.trim() !== "") {
      params.set(name, value.trim());
    }
  }
  return params;
}

/** A POSIX shell word that is exactly `text`, whatever it holds. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A YAML scalar that is exactly `text`: JSON's double-quoted strings are YAML's. */
export function yamlQuote(text: string): string {
  return JSON.stringify(text);
}

/** Ansible: the environment bin/hyperlens-inventory reads, then ansible-inventory over it. */
export function ansibleSnippet(input: SnippetInput): string {
  const query = exportQuery(input.filter).toString();
  return [
    `export HYPERLENS_URL=${shellQuote(input.origin)}`,
    `export HYPERLENS_TOKEN=${shellQuote(input.token ?? TOKEN_PLACEHOLDER)}`,
    ...(query ? [`export HYPERLENS_INVENTORY_QUERY=${shellQuote(query)}`] : []),
    "ansible-inventory -i bin/hyperlens-inventory --graph",
    "ansible all -i bin/hyperlens-inventory -m ansible.builtin.ping",
  ].join("\n");
}

/** Prometheus: one scrape job discovering its targets from /sd/prometheus. */
export function prometheusSnippet(input: SnippetInput): string {
  const query = exportQuery(input.filter);
  query.set("port", String(input.port));
  const url = `${input.origin}/sd/prometheus?${query}`;
  return [
    "scrape_configs:",
    `  - job_name: ${yamlQuote(`hyperlens-${input.port}`)}`,
    "    http_sd_configs:",
    `      - url: ${yamlQuote(url)}`,
    "        refresh_interval: 60s",
    "        authorization:",
    "          type: Bearer",
    `          credentials: ${yamlQuote(input.token ?? TOKEN_PLACEHOLDER)}`,
    "    relabel_configs:",
    "      - source_labels: [__meta_hyperlens_vm_name]",
    "        target_label: instance",
    "      - source_labels: [__meta_hyperlens_connection]",
    "        target_label: connection",
    "      - source_labels: [__meta_hyperlens_source]",
    "        target_label: source",
  ].join("\n");
}

/** A webhook receiver's check of Hyperlens-Signature (t=<unix seconds>,v1=<hex HMAC-SHA256>). */
export function webhookVerifySnippet(): string {
  return `import { createHmac, timingSafeEqual } from "node:crypto";

// secret: the endpoint's signing secret; header: the Hyperlens-Signature header; body: the raw body.
export function isFromHyperlens(secret, header, body, toleranceSeconds = 300) {
  const parts = Object.fromEntries(header.split(",").map((part) => part.split("=", 2)));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds)
    return false;
  const expected = createHmac("sha256", secret).update(\`\${timestamp}.\${body}\`).digest();
  const given = Buffer.from(parts.v1 ?? "", "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}`;
}
