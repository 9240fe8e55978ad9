// Saved views of the Servers page (docs/behaviour.md §9.47): each user's own; names unique per
// user; the query string checked for length and shape.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

const SAVE = `mutation($name: String!, $query: String!) {
  saveView(name: $name, query: $query) {
    __typename
    ... on ValidationError { message field }
    ... on MutationSaveViewSuccess { data { id name query } }
  }
}`;
const RENAME = `mutation($id: ID!, $name: String!) {
  renameView(id: $id, name: $name) {
    __typename
    ... on ValidationError { message field }
    ... on MutationRenameViewSuccess { data { id name query } }
  }
}`;
const DELETE = "mutation($id: ID!) { deleteView(id: $id) }";
const LIST = "{ savedViews { id name query } }";
const NODE = "query($id: ID!) { node(id: $id) { id ... on SavedView { name query } } }";

type View = { id: string; name: string; query: string };
type Answer = { __typename: string; message?: string; field?: string; data?: View };

describe("saved views", () => {
  let app: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    ({ app } = await startTestAppAsAdmin());
    alice = await app.signedInAs("alice", { capabilities: ["VIEW_INVENTORY"] });
    bob = await app.signedInAs("bob", { capabilities: ["VIEW_INVENTORY"] });
  });
  afterAll(async () => app?.close());

  async function save(cookie: string, name: string, query: string): Promise<Answer> {
    const res = await app.graphql<{ saveView: Answer }>(SAVE, { name, query }, { cookie });
    const answer = res.body.data?.saveView;
    if (!answer) throw new Error(JSON.stringify(res.body));
    return answer;
  }
  async function saved(cookie: string, name: string, query: string): Promise<View> {
    const answer = await save(cookie, name, query);
    if (!answer.data) throw new Error(JSON.stringify(answer));
    return answer.data;
  }
  const list = async (cookie: string) =>
    (await app.graphql<{ savedViews: View[] }>(LIST, {}, { cookie })).body.data?.savedViews;

  it("keeps a name and the page's query string, and lists the user's views by name", async () => {
    await saved(alice, "  Running Proxmox  ", "state=RUNNING&source=PROXMOX&cols=name%2Ccpu");
    await saved(alice, "All guests", "");
    expect(await list(alice)).toEqual([
      expect.objectContaining({ name: "All guests", query: "" }),
      expect.objectContaining({
        name: "Running Proxmox",
        query: "state=RUNNING&source=PROXMOX&cols=name%2Ccpu",
      }),
    ]);
  });

  it("refuses a second view of the same name, in any case, saying so on the name", async () => {
    await saved(alice, "Databases", "q=db");
    const again = await save(alice, "DATABASES", "q=db-02");
    expect(again).toMatchObject({
      __typename: "ValidationError",
      field: "name",
      message: "You already have a view named DATABASES.",
    });
    // Another user may use the same name.
    expect((await save(bob, "Databases", "q=db")).__typename).toBe("MutationSaveViewSuccess");
  });

  it("refuses an empty or too long name and a query string too long or of the wrong shape", async () => {
    expect(await save(alice, "   ", "q=a")).toMatchObject({ field: "name" });
    expect(await save(alice, "x".repeat(101), "q=a")).toMatchObject({ field: "name" });
    expect(await save(alice, "long", `q=${"a".repeat(2000)}`)).toMatchObject({
      field: "query",
      message: "A view's query string has at most 2000 characters; this one has 2002.",
    });
    expect(await save(alice, "junk", "<script>alert(1)</script>")).toMatchObject({
      field: "query",
      message: expect.stringMatching(/as the Servers page writes it/),
    });
    expect(await save(alice, "drawer", "q=web&vm=VmFiOjE")).toMatchObject({
      field: "query",
      message: expect.stringMatching(/does not keep “vm”/),
    });
    expect((await list(alice))?.map((v) => v.name)).not.toContain("junk");
  });

  it("renames a view, refusing a name the user already has", async () => {
    const view = await saved(alice, "Old name", "sort=CPU");
    const renamed = await app.graphql<{ renameView: Answer }>(
      RENAME,
      { id: view.id, name: "New name" },
      { cookie: alice },
    );
    expect(renamed.body.data?.renameView.data).toMatchObject({
      name: "New name",
      query: "sort=CPU",
    });
    const clash = await app.graphql<{ renameView: Answer }>(
      RENAME,
      { id: view.id, name: "all guests" },
      { cookie: alice },
    );
    expect(clash.body.data?.renameView).toMatchObject({
      __typename: "ValidationError",
      field: "name",
      message: "You already have a view named all guests.",
    });
  });

  it("shows, renames and deletes a view for its owner only: to anyone else it does not exist", async () => {
    const view = await saved(alice, "Alice only", "q=secret-project");
    const admin = await app.signedInAs("root", { isAdmin: true });
    for (const cookie of [bob, admin]) {
      expect((await list(cookie))?.map((v) => v.id)).not.toContain(view.id);
      const node = await app.graphql<{ node: unknown }>(NODE, { id: view.id }, { cookie });
      expect(node.body).toEqual({ data: { node: null } });
      const renamed = await app.graphql(RENAME, { id: view.id, name: "taken" }, { cookie });
      expect(renamed.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
      expect(renamed.body.errors?.[0]?.message).toBe("No such saved view.");
      const deleted = await app.graphql(DELETE, { id: view.id }, { cookie });
      expect(deleted.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    }
    const own = await app.graphql<{ node: View }>(NODE, { id: view.id }, { cookie: alice });
    expect(own.body.data?.node).toMatchObject({ name: "Alice only", query: "q=secret-project" });
    const deleted = await app.graphql(DELETE, { id: view.id }, { cookie: alice });
    expect(deleted.body.data).toEqual({ deleteView: view.id });
    expect((await list(alice))?.map((v) => v.id)).not.toContain(view.id);
  });

  it("belongs to people: an API token has no saved views", async () => {
    const token = await app.graphql<{ createApiToken: { data: { token: string } } }>(
      `mutation { createApiToken(name: "ci", capabilities: [VIEW_INVENTORY]) {
        ... on MutationCreateApiTokenSuccess { data { token } } } }`,
      {},
      { cookie: alice },
    );
    const bearer = { authorization: `Bearer ${token.body.data?.createApiToken.data.token}` };
    const res = await app.graphql(LIST, {}, bearer);
    expect(res.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });
});
