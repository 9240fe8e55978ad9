// Test helpers of @hyperlens/proxmox, imported as @hyperlens/proxmox/testing (never by shipped code).
export * from "./fixtures.ts";
export * from "./lab-cluster.ts";
