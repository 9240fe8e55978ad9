// What the server prints on a first run: the one-time setup token in a framed block of its own,
// so it stands out from the log lines around it rather than sitting inside a sentence.

const RULE = "=".repeat(72);

/** The first-run block: the setup token on its own line, then the two ways to use it. */
export function firstRunBanner(url: string, setupToken: string): string {
  return [
    "",
    RULE,
    "  First run: no user exists yet. Create the administrator with this one-time token.",
    "",
    `  Setup token:  ${setupToken}`,
    "",
    `  In the browser:  ${url}/setup  (paste the setup token)`,
    "  Or from a shell: npm run hyperlens -- user create <name> --admin --password-stdin",
    "                   (with the embedded database, stop the server first)",
    RULE,
    "",
  ].join("\n");
}
