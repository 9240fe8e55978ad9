// Server text beside its English (docs/behaviour.md §11.4): the code and parameters the web says
// in the viewer's language, and the English message API clients read as before.
import {
  isServerText,
  type LocalizedMessage,
  localizedMessage,
  SERVER_TEXT,
  type ServerText,
} from "@hyperlens/shared";
import { builder } from "./builder.ts";

export const LocalizedMessageRef = builder
  .objectRef<LocalizedMessage>("LocalizedMessage")
  .implement({
    description:
      "Text the server means for a person, as a code with parameters (for translation) and in English. Parameters are strings, numbers, or nested LocalizedMessage objects (code, params, message).",
    fields: (t) => ({
      code: t.exposeString("code", {
        description: "Stable code of the text; the web app's locales hold it under serverText.",
      }),
      params: t.field({
        type: "JSON",
        description: "The values the text is filled with, by name.",
        resolve: (text) => text.params,
      }),
      message: t.exposeString("message", { description: "The text in English." }),
    }),
  });

const isKnownText = (value: unknown): value is ServerText =>
  isServerText(value) &&
  value.code in SERVER_TEXT &&
  Object.values(value.params).every(
    (param) => typeof param === "string" || typeof param === "number" || isKnownText(param),
  );

/** A stored text for the API, or null when it is missing or has a code this server lacks. */
export function storedLocalizedMessage(value: unknown): LocalizedMessage | null {
  return isKnownText(value) ? localizedMessage(value) : null;
}

/** Stored texts (one per sentence) for the API, or null unless every one is known. */
export function storedLocalizedMessages(value: unknown): LocalizedMessage[] | null {
  if (!Array.isArray(value) || !value.every(isKnownText)) return null;
  return value.map(localizedMessage);
}
