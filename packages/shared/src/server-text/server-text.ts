// Text the server means for a person, kept as a code and parameters so the web can say it in the
// viewer's language, and rendered to English for API clients (docs/behaviour.md §11.4).
import { IntlMessageFormat } from "intl-messageformat";
import { SERVER_TEXT, type ServerTextCode } from "./catalog.ts";

/** A parameter: a word or number as it is, or a nested text (a label, a skip reason). */
export type ServerTextValue = string | number | ServerText;

/** The parameters of one text, by name. */
export type ServerTextParams = { readonly [name: string]: ServerTextValue };

/** A code of the catalog and the parameters its message uses. */
export interface ServerText {
  code: ServerTextCode;
  params: ServerTextParams;
}

type ParamsOf<C extends ServerTextCode> = {
  [K in keyof (typeof SERVER_TEXT)[C]["sample"]]: ServerTextValue;
};

/** Builds a text of the catalog, its parameters checked against the code's sample. */
export function serverText<C extends ServerTextCode>(code: C, params: ParamsOf<C>): ServerText {
  return { code, params };
}

/** True for a value that is a nested text rather than a word or number. */
export function isServerText(value: unknown): value is ServerText {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { code?: unknown }).code === "string" &&
    typeof (value as { params?: unknown }).params === "object"
  );
}

const formats = new Map<string, IntlMessageFormat>();

function englishFormat(code: ServerTextCode): IntlMessageFormat {
  let format = formats.get(code);
  if (!format) {
    format = new IntlMessageFormat(SERVER_TEXT[code].en, "en", undefined, { ignoreTag: true });
    formats.set(code, format);
  }
  return format;
}

/** The English of a text, nested texts rendered first. */
export function englishText(text: ServerText): string {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(text.params)) {
    values[name] = isServerText(value) ? englishText(value) : value;
  }
  return String(englishFormat(text.code).format(values));
}

/** A text as the API sends it: the code, the parameters (nested ones alike) and the English. */
export interface LocalizedMessage {
  code: string;
  params: { [name: string]: string | number | LocalizedMessage };
  message: string;
}

/** The API's shape of a text: every nested text carries its English too. */
export function localizedMessage(text: ServerText): LocalizedMessage {
  const params: LocalizedMessage["params"] = {};
  for (const [name, value] of Object.entries(text.params)) {
    params[name] = isServerText(value) ? localizedMessage(value) : value;
  }
  return { code: text.code, params, message: englishText(text) };
}

/**
 * An error's message as a code and parameters, when the error carries one (`text`, as the
 * hypervisor door sets it) that still says exactly its message; a message changed after the text
 * was made has none.
 */
export function errorText(error: unknown): ServerText | undefined {
  if (!(error instanceof Error)) return undefined;
  const text = (error as { text?: unknown }).text;
  if (!isServerText(text) || !(text.code in SERVER_TEXT)) return undefined;
  return englishText(text) === error.message ? text : undefined;
}
