// The registry behind the suite-wide secret-leak check (vitest.secret-leak.ts): secrets the tests
// stored, and what the tests' clients saw (GraphQL bodies, log lines). Kept on globalThis so the
// setup file and the helpers share it whatever module instance each loads.

/** What one test file registered and captured. */
export interface SecretLeakRegistry {
  secrets: Set<string>;
  bodies: string[];
  logs: string[][];
}

const KEY = Symbol.for("hyperlens.secret-leak-registry");
/** Shorter values ("x", "unused") would match by chance; real secrets are longer. */
const MIN_LENGTH = 8;

/** The registry of this test worker (created on first use). */
export function secretLeakRegistry(): SecretLeakRegistry {
  const holder = globalThis as { [KEY]?: SecretLeakRegistry };
  holder[KEY] ??= { secrets: new Set(), bodies: [], logs: [] };
  return holder[KEY];
}

/** A value no GraphQL response or log line may ever contain. */
export function registerSecret(value: string | null | undefined): void {
  if (value && value.length >= MIN_LENGTH) secretLeakRegistry().secrets.add(value);
}

/** A GraphQL response body as the client received it. */
export function captureResponseBody(text: string): void {
  secretLeakRegistry().bodies.push(text);
}

/** Log lines collected by a test logger (scanned after the file, so later lines count too). */
export function captureLogLines(lines: string[]): void {
  secretLeakRegistry().logs.push(lines);
}

/** Every registered secret found in a captured body or log line, with where it was. */
export function findLeaks(registry: SecretLeakRegistry = secretLeakRegistry()): string[] {
  const hits: string[] = [];
  if (registry.secrets.size === 0) return hits;
  const secrets = [...registry.secrets];
  const scan = (where: string, text: string) => {
    for (const secret of secrets) {
      if (text.includes(secret)) {
        const masked = `${secret.slice(0, 2)}…(${secret.length} chars)`;
        hits.push(`${masked} in ${where}: ${text.slice(0, 300)}`);
      }
    }
  };
  for (const [i, body] of registry.bodies.entries()) scan(`GraphQL response #${i + 1}`, body);
  for (const lines of registry.logs) for (const line of lines) scan("a log line", line);
  return hits;
}
