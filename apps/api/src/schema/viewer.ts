import { CAPABILITIES } from "@hyperlens/shared";
import type { Viewer } from "../auth/viewer.ts";
import { BUILD_INFO } from "../version.ts";
import { builder } from "./builder.ts";

export const CapabilityEnum = builder.enumType("Capability", {
  description: "What a user or API token may do.",
  values: CAPABILITIES,
});

export const ViewerKind = builder.enumType("ViewerKind", {
  values: ["USER", "API_TOKEN"] as const,
});

export const ViewerRef = builder.objectRef<Viewer>("Viewer").implement({
  description: "The signed-in user, or the user an API token acts for, with its capabilities.",
  fields: (t) => ({
    kind: t.field({ type: ViewerKind, resolve: (viewer) => viewer.kind }),
    username: t.exposeString("username"),
    isAdmin: t.exposeBoolean("isAdmin"),
    mustChangePassword: t.boolean({
      description:
        "True when an administrator reset your password: until you change it (changeOwnPassword), only viewer, changeOwnPassword and signOut answer; everything else is PASSWORD_CHANGE_REQUIRED.",
      resolve: (viewer) => viewer.mustChangePassword ?? false,
    }),
    capabilities: t.field({
      type: [CapabilityEnum],
      resolve: (viewer) => [...viewer.capabilities],
    }),
    version: t.string({
      description:
        "The Hyperlens release answering (semantic version), as `hyperlens --version` and /healthz report it.",
      resolve: () => BUILD_INFO.version,
    }),
  }),
});

builder.queryField("viewer", (t) =>
  t.field({
    type: ViewerRef,
    nullable: true,
    description: "Who is asking; null when not signed in.",
    resolve: (_root, _args, ctx) => ctx.viewer,
  }),
);
