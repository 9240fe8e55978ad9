import { HyperError } from "@hyperlens/hyper-http";

const TOKEN_ID = /^[^\s!@=]+@[^\s!@=]+![A-Za-z][A-Za-z0-9._-]*$/;

/**
 * Builds the API-token header value `PVEAPIToken=USER@REALM!TOKENID=SECRET`. A token id of the
 * wrong shape is refused up front (Proxmox answers a bare 401 that would not say why).
 */
export function tokenAuthorization(tokenId: string, secret: string): string {
  if (!TOKEN_ID.test(tokenId)) {
    throw new HyperError(
      `The Proxmox token id "${tokenId}" is not of the form user@realm!tokenname`,
      { errorClass: "config", source: "Proxmox" },
    );
  }
  if (secret === "" || /\s/.test(secret)) {
    throw new HyperError("The Proxmox token secret is empty or contains spaces", {
      errorClass: "config",
      source: "Proxmox",
    });
  }
  return `PVEAPIToken=${tokenId}=${secret}`;
}
