// Builds the schema from the domain files; each registers its own types and fields.
import { builder } from "./builder.ts";
import "./errors.ts";
import "./viewer.ts";
import "./auth.ts";
import "./api-token.ts";
import "./user.ts";
import "./session.ts";
import "./two-factor.ts";
import "./connection.ts";
import "./connection-group.ts";
import "./sync-run.ts";
import "./inventory-event.ts";
import "./inventory-history.ts";
import "./inventory-changes.ts";
import "./virtual-machine.ts";
import "./virtual-machine-group.ts";
import "./virtual-machine-facets.ts";
import "./cross-source-link.ts";
import "./hypervisor-node.ts";
import "./audit-log.ts";
import "./identity-provider.ts";
import "./directory-sign-in.ts";
import "./webhook.ts";
import "./address-rules.ts";
import "./saved-view.ts";

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});

export const schema = builder.toSchema({ sortSchema: true });
