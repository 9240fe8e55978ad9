// The container test's requests (scripts/image-test.sh): waits for /readyz, signs in as the user the
// image's CLI created, syncs every connection (the demo stand-ins), waits until no run is RUNNING and
// checks the inventory has virtual machines (no run FAILED or CANCELLED). Plain fetch, so it runs on any Node the host has.
// Usage: node scripts/image-smoke.mjs <base URL> <username>  (password on stdin)
import { readFileSync } from "node:fs";

const [baseUrl, username] = process.argv.slice(2);
if (!baseUrl || !username)
  throw new Error("usage: image-smoke.mjs <base URL> <username> < password");
const password = readFileSync(0, "utf8").trim();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntilReady(timeoutMs) {
  const started = Date.now();
  for (;;) {
    const status = await fetch(`${baseUrl}/readyz`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return Date.now() - started;
    if (Date.now() - started > timeoutMs)
      throw new Error(`/readyz not 200 after ${timeoutMs} ms (last: ${status})`);
    await sleep(250);
  }
}

let cookie = "";
async function graphql(query, variables = {}) {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = await res.json();
  if (body.errors?.length) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
  cookie = res.headers.get("set-cookie")?.split(";")[0] ?? cookie;
  return body.data;
}

const readyMs = await waitUntilReady(120_000);
console.log(`/readyz answered 200 after ${(readyMs / 1000).toFixed(1)} s`);

const signIn = await graphql(
  "mutation($u: String!, $p: String!) { signIn(username: $u, password: $p) { __typename } }",
  { u: username, p: password },
);
if (signIn.signIn.__typename !== "MutationSignInSuccess" || !cookie)
  throw new Error(`sign-in as ${username} failed: ${signIn.signIn.__typename}`);
console.log(`signed in as ${username} (the user the image's CLI created)`);

const started = await graphql("mutation { syncAll { id connection { name } } }");
const runIds = new Set(started.syncAll.map((run) => run.id));
if (runIds.size === 0) throw new Error("syncAll started no run: the demo connections are missing");
const syncStarted = Date.now();
let runs = [];
for (;;) {
  const data = await graphql(
    "{ syncRuns(first: 50) { edges { node { id outcome message connection { name } } } } }",
  );
  runs = data.syncRuns.edges.map((edge) => edge.node).filter((run) => runIds.has(run.id));
  if (runs.length === runIds.size && runs.every((run) => run.outcome !== "RUNNING")) break;
  if (Date.now() - syncStarted > 120_000)
    throw new Error(`syncs still running after 120 s: ${JSON.stringify(runs)}`);
  await sleep(500);
}
// The demo Proxmox cluster has an offline node by design, so its run ends PARTIAL.
const failed = runs.filter((run) => run.outcome !== "SUCCESS" && run.outcome !== "PARTIAL");
if (failed.length > 0) throw new Error(`syncs did not succeed: ${JSON.stringify(failed)}`);
const inventory = await graphql("{ virtualMachines(first: 1) { totalCount } }");
const vms = inventory.virtualMachines.totalCount;
if (!(vms > 0)) throw new Error("the syncs read no virtual machine");
console.log(
  `synced ${runs.map((run) => run.connection.name).join(", ")} in ${((Date.now() - syncStarted) / 1000).toFixed(1)} s: ${vms} virtual machines`,
);
