// Address rules over GraphQL, end to end on the demo Proxmox stand-in (docs/behaviour.md §10.9):
// the preview asks the hypervisor nothing and writes nothing; saving applies at once, is audited
// and feeds the change feed; a connection's own rules replace the global ones; the next unchanged
// sync keeps what the rules made and writes nothing.
import { createProxmoxStandin, demoCluster } from "@hyperlens/standins/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { eachFileConnectedTo } from "../testing/standin-connections.ts";

// Proxmox VE 9 lets the auditor token read the guest agent, which reports web-01's docker0.
const pve = eachFileConnectedTo("PROXMOX", "pve", () =>
  createProxmoxStandin({ cluster: demoCluster(), version: "9.1" }),
);

const RULES = `ignoredInterfaces permittedSubnets ignoredSubnets dropLinkLocal keepUnmatchedMac
  primary { preferredSubnets family origin }`;

const SHIPPED = {
  ignoredInterfaces: ["lo", "docker*", "br-*", "veth*", "cali*", "flannel*", "cni*", "virbr*"],
  permittedSubnets: [],
  ignoredSubnets: [],
  dropLinkLocal: true,
  keepUnmatchedMac: false,
  primary: { preferredSubnets: [], family: "IPV4_FIRST", origin: "CONFIG_FIRST" },
};

const PREVIEW = `query($connectionId: ID, $rules: AddressRulesInput) {
  previewAddressRules(connectionId: $connectionId, rules: $rules) {
    __typename
    ... on ValidationError { message problems { field message } }
    ... on QueryPreviewAddressRulesSuccess { data {
      vmCount changedVmCount addedCount droppedCount primaryChangedCount isTruncated
      changes { vm { name } added dropped { address rule reason reasonText { code params message } }
        primaryBefore primaryAfter }
    } }
  }
}`;

const SET_GLOBAL = `mutation($rules: AddressRulesInput) {
  setGlobalAddressRules(rules: $rules) {
    __typename
    ... on ValidationError { problems { field message } }
    ... on MutationSetGlobalAddressRulesSuccess { data { isShipped global { ${RULES} } } }
  }
}`;

const SET_CONNECTION = `mutation($connectionId: ID!, $rules: AddressRulesInput) {
  setConnectionAddressRules(connectionId: $connectionId, rules: $rules) {
    __typename
    ... on MutationSetConnectionAddressRulesSuccess { data { addressRules { isInherited rules { ${RULES} } } } }
  }
}`;

const WEB_01 = `query {
  virtualMachines(first: 1, filter: { search: "web-01" }) { edges { node {
    name primaryAddress
    ipAddresses(includeRejected: true) { address isAccepted rejectRule rejectReason }
  } } }
}`;

type Web01 = {
  primaryAddress: string | null;
  ipAddresses: { address: string; isAccepted: boolean; rejectRule: string | null }[];
};

let admin: string;
let manager: string;
const connectionGid = () => Buffer.from(`Connection:${pve.connectionId}`).toString("base64");

async function gql<T = Record<string, unknown>>(
  query: string,
  variables: Record<string, unknown>,
  cookie = admin,
) {
  const res = await pve.app.graphql<T>(query, variables, { cookie });
  return res.body;
}

async function web01(): Promise<Web01> {
  const body = await gql<{ virtualMachines: { edges: { node: Web01 }[] } }>(WEB_01, {});
  const node = body.data?.virtualMachines.edges[0]?.node;
  if (!node) throw new Error(JSON.stringify(body));
  return node;
}

/** web-01's ansible_host in the Ansible export. */
async function hostOf(query = "") {
  const res = await fetch(`${pve.app.url}/inventory/ansible${query}`, {
    headers: { cookie: admin },
  });
  const inventory = (await res.json()) as {
    _meta: { hostvars: Record<string, { ansible_host?: string }> };
  };
  return inventory._meta.hostvars["web-01"]?.ansible_host;
}

const ignoring = (subnet: string) => ({ ...SHIPPED, ignoredSubnets: [subnet] });

beforeAll(async () => {
  admin = await pve.app.signedInAs("admin", { isAdmin: true });
  manager = await pve.app.signedInAs("pve-manager", {
    capabilities: ["VIEW_INVENTORY", "MANAGE_PROXMOX"],
  });
  expect((await pve.sync()).outcome).not.toBe("FAILED");
});

describe("address rules (docs/behaviour.md §10.9)", () => {
  it("syncs by the shipped rules: docker0 ignored by name, the IPv4 address primary", async () => {
    const vm = await web01();
    expect(vm.primaryAddress).toBe("10.10.0.11");
    expect(vm.ipAddresses.find((ip) => ip.address === "172.17.0.1")).toMatchObject({
      isAccepted: false,
      rejectRule: "IGNORED_INTERFACE",
    });
  });

  it("exports reach a guest at the rules' primary unless the request states its own order", async () => {
    expect(await hostOf()).toBe("10.10.0.11");
    expect(await hostOf("?prefer=ipv6")).toBe("2001:db8:10::11");
  });

  it("previews global rules guest by guest without asking the hypervisor or writing anything", async () => {
    const requestsBefore = pve.standin.requests.length;
    const before = await web01();
    const body = await gql<{ previewAddressRules: { data: { changes: unknown[] } } }>(PREVIEW, {
      rules: ignoring("10.10.0.0/24"),
    });
    const preview = body.data?.previewAddressRules as unknown as {
      __typename: string;
      data: {
        changedVmCount: number;
        droppedCount: number;
        changes: {
          vm: { name: string };
          dropped: {
            address: string;
            rule: string;
            reason: string;
            reasonText: { code: string; params: unknown; message: string } | null;
          }[];
          primaryBefore: string | null;
          primaryAfter: string | null;
        }[];
      };
    };
    expect(preview.__typename).toBe("QueryPreviewAddressRulesSuccess");
    const web = preview.data.changes.find((c) => c.vm.name === "web-01");
    expect(web).toMatchObject({
      dropped: [{ address: "10.10.0.11", rule: "IGNORED_SUBNET" }],
      primaryBefore: "10.10.0.11",
      primaryAfter: "2001:db8:10::11",
    });
    // docs/behaviour.md §11.4: why, as the same code a stored rejection has.
    expect(web?.dropped[0]?.reasonText).toEqual({
      code: "addressIgnoredSubnet",
      params: { label: "ens18", subnet: "10.10.0.0/24" },
      message: web?.dropped[0]?.reason,
    });
    expect(preview.data.changedVmCount).toBeGreaterThanOrEqual(2);
    expect(pve.standin.requests.length, "the preview asked the hypervisor").toBe(requestsBefore);
    expect(await web01(), "the preview wrote").toEqual(before);
  });

  it("refuses rules with problems, field by field, and saves nothing", async () => {
    const body = await gql<{ setGlobalAddressRules: unknown }>(SET_GLOBAL, {
      rules: { ...ignoring("10.10.0.0/33"), ignoredInterfaces: ["*"] },
    });
    expect(body.data?.setGlobalAddressRules).toMatchObject({
      __typename: "ValidationError",
      problems: expect.arrayContaining([
        expect.objectContaining({ field: "ignoredInterfaces.0" }),
        expect.objectContaining({ field: "ignoredSubnets.0" }),
      ]),
    });
    expect((await web01()).primaryAddress).toBe("10.10.0.11");
  });

  it("lets only administrators set the global rules", async () => {
    const body = await gql(SET_GLOBAL, { rules: ignoring("10.10.0.0/24") }, manager);
    expect(body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const preview = await gql(PREVIEW, { rules: ignoring("10.10.0.0/24") }, manager);
    expect(preview.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("refuses the global rules to an API token, even an administrator's own limited to a group (tokens are never administrators)", async () => {
    const group = await gql<{ createConnectionGroup: { data: { id: string } } }>(
      `mutation { createConnectionGroup(name: "tenant-a") {
        ... on MutationCreateConnectionGroupSuccess { data { id } } } }`,
      {},
    );
    const groupId = group.data?.createConnectionGroup.data.id;
    const created = await gql<{ createApiToken: { data: { token: string } } }>(
      `mutation($g: [ID!]) { createApiToken(name: "limited", capabilities: [VIEW_INVENTORY],
        allConnections: false, groupIds: $g) { ... on MutationCreateApiTokenSuccess { data { token } } } }`,
      { g: [groupId] },
    );
    const token = created.data?.createApiToken.data.token;
    const limited = { authorization: `Bearer ${token}` };
    for (const query of [PREVIEW, SET_GLOBAL]) {
      const res = await pve.app.graphql(query, { rules: ignoring("10.10.0.0/24") }, limited);
      expect(res.body.errors?.[0]?.extensions?.code, query.slice(0, 30)).toBe("FORBIDDEN");
    }
  });

  it("applies saved global rules at once, audits them and feeds IP_REMOVED; an unchanged re-sync keeps it and writes nothing", async () => {
    const requestsBefore = pve.standin.requests.length;
    const body = await gql(SET_GLOBAL, { rules: ignoring("10.10.0.0/24") });
    expect(body.data?.setGlobalAddressRules).toMatchObject({
      __typename: "MutationSetGlobalAddressRulesSuccess",
      data: { isShipped: false, global: { ignoredSubnets: ["10.10.0.0/24"] } },
    });
    expect(pve.standin.requests.length, "saving asked the hypervisor").toBe(requestsBefore);
    const applied = await web01();
    expect(applied.primaryAddress).toBe("2001:db8:10::11");
    expect(applied.ipAddresses.find((ip) => ip.address === "10.10.0.11")).toMatchObject({
      isAccepted: false,
      rejectRule: "IGNORED_SUBNET",
    });
    const prisma = pve.services.prisma;
    expect(await prisma.auditLog.count({ where: { action: "address_rules.global.set" } })).toBe(1);
    const removed = await prisma.inventoryEvent.findMany({
      where: { type: "IP_REMOVED", syncRunId: null },
    });
    expect(removed.map((e) => (e.data as { address: string }).address)).toContain("10.10.0.11");

    // The exports reach the guest at the rules' primary, unless the request states its own order.
    expect(await hostOf()).toBe("2001:db8:10::11");

    const resync = await pve.sync();
    expect(resync.counts.changed).toBe(0);
    expect(await web01()).toEqual(applied);
  });

  it("a connection's own rules replace the global ones until it follows them again", async () => {
    const own = {
      ...SHIPPED,
      primary: { ...SHIPPED.primary, family: "IPV6_FIRST" },
    };
    const set = await gql(SET_CONNECTION, { connectionId: connectionGid(), rules: own }, manager);
    expect(set.data?.setConnectionAddressRules).toMatchObject({
      data: { addressRules: { isInherited: false, rules: { ignoredSubnets: [] } } },
    });
    const ownApplied = await web01();
    expect(ownApplied.primaryAddress).toBe("2001:db8:10::11");
    expect(ownApplied.ipAddresses.find((ip) => ip.address === "10.10.0.11")?.isAccepted).toBe(true);
    expect(await hostOf(), "the export follows the rules' primary").toBe("2001:db8:10::11");

    const back = await gql(SET_CONNECTION, { connectionId: connectionGid(), rules: null }, manager);
    expect(back.data?.setConnectionAddressRules).toMatchObject({
      data: { addressRules: { isInherited: true, rules: { ignoredSubnets: ["10.10.0.0/24"] } } },
    });
    expect((await web01()).ipAddresses.find((ip) => ip.address === "10.10.0.11")?.isAccepted).toBe(
      false,
    );
  });

  it("goes back to the shipped rules", async () => {
    const body = await gql(SET_GLOBAL, { rules: null });
    expect(body.data?.setGlobalAddressRules).toMatchObject({ data: { isShipped: true } });
    expect((await web01()).primaryAddress).toBe("10.10.0.11");
  });
});
