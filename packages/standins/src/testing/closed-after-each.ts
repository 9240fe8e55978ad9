import { afterEach } from "vitest";

/**
 * Wraps a starter (a stand-in, a server) so that everything it starts during a test is closed
 * after that test, even when the test fails: `const start = closedAfterEach(createVcdStandin);`
 * at the top of a test file.
 */
export function closedAfterEach<Args extends unknown[], Started extends { close(): Promise<void> }>(
  start: (...args: Args) => Promise<Started>,
): (...args: Args) => Promise<Started> {
  const open: Started[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((started) => started.close()));
  });
  return async (...args) => {
    const started = await start(...args);
    open.push(started);
    return started;
  };
}
