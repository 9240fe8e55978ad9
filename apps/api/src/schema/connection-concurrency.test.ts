// The per-connection and per-node request limits a connection keeps (docs/behaviour.md §3.7):
// their defaults, their validation, and their round trip through GraphQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveConnection } from "../services/connections.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

const LIMITS = "maxConcurrentRequests maxRequestsPerNode";
const SAVE_PROXMOX = `mutation($input: ProxmoxConnectionInput!) {
  saveProxmoxConnection(input: $input) {
    __typename
    ... on ValidationError { problems { field message } }
    ... on MutationSaveProxmoxConnectionSuccess { data { id ${LIMITS} } }
  }
}`;
const SAVE_VCENTER = `mutation($input: VcenterConnectionInput!) {
  saveVcenterConnection(input: $input) {
    __typename
    ... on MutationSaveVcenterConnectionSuccess { data { id ${LIMITS} } }
  }
}`;

type Limits = { id: string; maxConcurrentRequests: number; maxRequestsPerNode: number | null };
type Answer = {
  __typename: string;
  problems?: { field: string; message: string }[];
  data?: Limits;
};

describe("a connection's request limits", () => {
  let app: TestApp;
  let admin: string;
  const base = {
    url: "https://pve.example:8006",
    username: "hyperlens@pve",
    tokenId: "inventory",
    secret: "3f5e1c2a-pve-token-secret-value",
  };

  beforeAll(async () => {
    ({ app, admin } = await startTestAppAsAdmin());
  });
  afterAll(async () => app?.close());

  async function saveProxmox(input: Record<string, unknown>): Promise<Answer> {
    const res = await app.graphql<{ saveProxmoxConnection: Answer }>(
      SAVE_PROXMOX,
      { input },
      { cookie: admin },
    );
    return res.body.data?.saveProxmoxConnection ?? { __typename: JSON.stringify(res.body.errors) };
  }

  const storedSettings = async (name: string) =>
    (await app.services.prisma.connection.findFirstOrThrow({ where: { name } })).settings;

  it("gives Proxmox 16 per connection and 2 per node by default, without writing the defaults", async () => {
    const saved = await saveProxmox({ ...base, name: "defaults" });
    expect(saved.data).toMatchObject({ maxConcurrentRequests: 16, maxRequestsPerNode: 2 });
    const id = saved.data?.id ?? "";
    expect(await storedSettings("defaults")).toEqual({});
    // An edit that sets nothing keeps nothing either: the defaults stay the release's to change.
    await saveProxmox({ ...base, name: "defaults", id, secret: "" });
    expect(await storedSettings("defaults")).toEqual({});
  });

  it("stores both limits, shows them back, and keeps them on an edit that leaves them out", async () => {
    const saved = await saveProxmox({
      ...base,
      name: "set",
      maxConcurrentRequests: 8,
      maxRequestsPerNode: 3,
    });
    expect(saved.data).toMatchObject({ maxConcurrentRequests: 8, maxRequestsPerNode: 3 });
    const id = saved.data?.id ?? "";
    const edited = await saveProxmox({ ...base, name: "set", id, secret: "" });
    expect(edited.data).toMatchObject({ maxConcurrentRequests: 8, maxRequestsPerNode: 3 });
    const changed = await saveProxmox({ ...base, name: "set", id, maxRequestsPerNode: 1 });
    expect(changed.data).toMatchObject({ maxConcurrentRequests: 8, maxRequestsPerNode: 1 });
    const read = await app.graphql<{ connection: Limits }>(
      `query($id: ID!) { connection(id: $id) { id ${LIMITS} } }`,
      { id },
      { cookie: admin },
    );
    expect(read.body.data?.connection).toMatchObject({
      maxConcurrentRequests: 8,
      maxRequestsPerNode: 1,
    });
  });

  it("refuses limits outside 1 to 16, naming each field", async () => {
    const zero = await saveProxmox({
      ...base,
      name: "zero",
      maxConcurrentRequests: 0,
      maxRequestsPerNode: 0,
    });
    expect(zero.__typename).toBe("ValidationError");
    expect(zero.problems).toEqual([
      { field: "maxConcurrentRequests", message: "Use a whole number from 1 to 16." },
      {
        field: "maxRequestsPerNode",
        message:
          "Use a whole number from 1 to 16 (pveproxy serves each node with 3 workers by default).",
      },
    ]);
    const many = await saveProxmox({ ...base, name: "many", maxRequestsPerNode: 17 });
    expect(many.problems?.map((p) => p.field)).toEqual(["maxRequestsPerNode"]);
    expect(await app.services.prisma.connection.count({ where: { name: "many" } })).toBe(0);
  });

  it("keeps 4 per connection for the other kinds, which have no per-node limit", async () => {
    const res = await app.graphql<{ saveVcenterConnection: Answer }>(
      SAVE_VCENTER,
      {
        input: {
          name: "vc",
          url: "https://vc.example",
          username: "hyperlens@vsphere.local",
          secret: "pw",
        },
      },
      { cookie: admin },
    );
    expect(res.body.data?.saveVcenterConnection.data).toMatchObject({
      maxConcurrentRequests: 4,
      maxRequestsPerNode: null,
    });
    // Not in the vCenter input; the service, which the CLI uses too, refuses it as well.
    await expect(
      saveConnection(
        app.services.prisma,
        app.services.secrets,
        "VCENTER",
        {
          name: "vc2",
          url: "https://vc2.example",
          username: "hyperlens@vsphere.local",
          secret: "pw",
          maxRequestsPerNode: 2,
        },
        null,
        app.services.targetPolicy,
      ),
    ).rejects.toMatchObject({
      problems: [
        {
          field: "maxRequestsPerNode",
          message:
            "Only Proxmox connections have a per-node limit: this server answers every request itself.",
        },
      ],
    });
  });
});
