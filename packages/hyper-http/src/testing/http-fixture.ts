/** A recorded raw HTTP response (a `.http` fixture). */
export interface HttpFixture {
  status: number;
  reason: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * Parses a recorded raw HTTP response: status line, header lines, a blank line (CRLF or LF),
 * then the body as it stands. `source` names the fixture when its status line is not HTTP/1.x.
 */
export function parseHttpFixture(text: string, source: string): HttpFixture {
  const blank = /\r?\n\r?\n/.exec(text);
  const head = blank ? text.slice(0, blank.index) : text;
  const body = blank ? text.slice(blank.index + blank[0].length) : "";
  const [statusLine = "", ...headerLines] = head.split(/\r?\n/);
  const match = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine.trim());
  if (!match) throw new Error(`bad status line in ${source}`);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const at = line.indexOf(":");
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return { status: Number(match[1]), reason: match[2] ?? "", headers, body };
}
