// The Pothos builder and its plugins; defines no types (those live in one file per domain).

import { type Capability, getDatamodel, type PothosPrismaTypes } from "@hyperlens/db/pothos";
import SchemaBuilder from "@pothos/core";
import ErrorsPlugin from "@pothos/plugin-errors";
import PrismaPlugin from "@pothos/plugin-prisma";
import RelayPlugin from "@pothos/plugin-relay";
import ScopeAuthPlugin from "@pothos/plugin-scope-auth";
import { GraphQLError } from "graphql";
import type { Context } from "../context.ts";
import {
  ForbiddenError,
  NotAuthenticatedError,
  TwoFactorEnrolmentRequiredError,
} from "../errors.ts";
import { decodeUuidGlobalID, requireNodeTypes } from "./global-ids.ts";

type CapabilityScopes = { [K in Capability]: boolean };

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PothosPrismaTypes;
  AuthScopes: CapabilityScopes & {
    signedIn: boolean;
    user: boolean;
    enrolling: boolean;
    admin: boolean;
  };
  DefaultFieldNullability: false;
  Scalars: { DateTime: { Input: Date; Output: Date }; JSON: { Input: never; Output: unknown } };
}>({
  defaultFieldNullability: false,
  plugins: [ScopeAuthPlugin, ErrorsPlugin, PrismaPlugin, RelayPlugin],
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: (ctx) => {
      const has = (capability: Capability) => ctx.viewer?.capabilities.has(capability) ?? false;
      // TRAP: docs/behaviour.md §12.35 — a session that must enrol in two-factor is neither
      // signed in nor a user to any field but the enrolment ones (`enrolling`).
      const isLimited = ctx.viewer?.mustEnrolTwoFactor === true;
      return {
        signedIn: ctx.viewer !== null && !isLimited,
        user: ctx.viewer?.kind === "USER" && !isLimited,
        enrolling: ctx.viewer?.kind === "USER",
        admin: ctx.viewer?.kind === "USER" && ctx.viewer.isAdmin && !isLimited,
        VIEW_INVENTORY: has("VIEW_INVENTORY"),
        RUN_SYNC: has("RUN_SYNC"),
        MANAGE_PROXMOX: has("MANAGE_PROXMOX"),
        MANAGE_VCD: has("MANAGE_VCD"),
        MANAGE_VCENTER: has("MANAGE_VCENTER"),
        MANAGE_USERS: has("MANAGE_USERS"),
      };
    },
    unauthorizedError: (_parent, ctx) => {
      if (ctx.viewer?.mustEnrolTwoFactor) return new TwoFactorEnrolmentRequiredError();
      return ctx.viewer ? new ForbiddenError() : new NotAuthenticatedError();
    },
  },
  errors: { defaultTypes: [] },
  relay: {
    clientMutationId: "omit",
    cursorType: "String",
    decodeGlobalID: decodeUuidGlobalID,
    nodeQueryOptions: {
      resolve: (_root, args, _ctx, info, resolveNode) => {
        requireNodeTypes(info, [args.id]);
        return resolveNode(args.id);
      },
    },
    nodesQueryOptions: {
      resolve: (_root, args, _ctx, info, resolveNodes) => {
        requireNodeTypes(info, args.ids);
        return resolveNodes(args.ids);
      },
    },
  },
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
});

builder.scalarType("DateTime", {
  description: "An ISO 8601 date-time in UTC.",
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new GraphQLError("Expected an ISO 8601 date-time.");
    // TRAP: issue 8 — a year past 9999 (or before 1) is a valid Date the database cannot store: an internal error.
    const year = date.getUTCFullYear();
    if (year < 1 || year > 9999)
      throw new GraphQLError("Expected a date-time between the years 1 and 9999.");
    return date;
  },
});
