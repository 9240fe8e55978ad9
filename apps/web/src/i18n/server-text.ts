// Text the server sent as a code with parameters beside its English (docs/behaviour.md §9.52):
// said in the viewer's language where the catalog has the code, else the server's English.
import { hasMessage, t } from "./i18n.ts";
import type { MessageValues } from "./message-format.ts";

/** A LocalizedMessage as the API sends it. */
export interface ServerMessage {
  code: string;
  params: unknown;
  message: string;
}

function isServerMessage(value: unknown): value is ServerMessage {
  if (typeof value !== "object" || value === null) return false;
  const { code, message } = value as Partial<ServerMessage>;
  return typeof code === "string" && typeof message === "string";
}

function valuesOf(params: unknown): MessageValues {
  const values: MessageValues = {};
  if (typeof params !== "object" || params === null) return values;
  for (const [name, value] of Object.entries(params)) {
    if (isServerMessage(value)) values[name] = serverMessageText(value);
    else if (typeof value === "string" || typeof value === "number") values[name] = value;
    else values[name] = JSON.stringify(value);
  }
  return values;
}

/** One server text in the current language; an unknown code keeps the server's English. */
export function serverMessageText(text: ServerMessage): string {
  const key = `serverText.${text.code}`;
  if (!hasMessage(key)) return text.message;
  try {
    return t(key, valuesOf(text.params));
  } catch {
    // A translation that cannot be filled with what this server sent is worse than English.
    return text.message;
  }
}

/** Server texts (one per sentence) in the current language, or `english` when there are none. */
export function serverMessagesText(
  texts: readonly ServerMessage[] | null | undefined,
  english: string,
): string {
  return texts?.length ? texts.map(serverMessageText).join(" ") : english;
}
