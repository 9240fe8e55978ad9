// A small structured logger: one JSON object per line on stdout. Keys that look like secrets are
// replaced before anything is written, whatever the caller passed.
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = keyof typeof LEVELS;

const SECRET_KEY = /pass(word)?|secret|token|authorization|cookie|ciphertext|api[-_]?key/i;

/** Structured log sink used across the server. */
export interface Logger {
  debug(fields: Record<string, unknown>, message?: string): void;
  info(fields: Record<string, unknown>, message?: string): void;
  warn(fields: Record<string, unknown>, message?: string): void;
  error(fields: Record<string, unknown>, message?: string): void;
  child(fields: Record<string, unknown>): Logger;
  /** Whether lines of `level` are written: lets a caller skip building lines nobody keeps. */
  isLevelEnabled(level: Exclude<Level, "silent">): boolean;
}

function redact(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      SECRET_KEY.test(key) ? "[redacted]" : redact(item, depth + 1),
    ]),
  );
}

/** Creates a logger writing JSON lines at or above `level` to `write`. */
export function createLogger(
  level: Level,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  bound: Record<string, unknown> = {},
): Logger {
  const at =
    (lineLevel: Exclude<Level, "silent">) =>
    (fields: Record<string, unknown>, message?: string) => {
      if (LEVELS[lineLevel] < LEVELS[level]) return;
      write(
        JSON.stringify({
          time: new Date().toISOString(),
          level: lineLevel,
          ...(redact({ ...bound, ...fields }) as Record<string, unknown>),
          ...(message ? { msg: message } : {}),
        }),
      );
    };
  return {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    child: (fields) => createLogger(level, write, { ...bound, ...fields }),
    isLevelEnabled: (lineLevel) => LEVELS[lineLevel] >= LEVELS[level],
  };
}
