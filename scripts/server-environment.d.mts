/** The environment `npm start` gives the server: demo stand-ins by default outside production only. */
export function serverEnvironment(
  env: Record<string, string | undefined>,
): Record<string, string | undefined>;
