import { textError } from "@hyperlens/hyper-http";
import { serverText } from "@hyperlens/shared";

const TOKEN_ID = /^[^\s!@=]+@[^\s!@=]+![A-Za-z][A-Za-z0-9._-]*$/;

/**
 * Builds the API-token header value `PVEAPIToken=USER@REALM!TOKENID=SECRET`. A token id of the
 * wrong shape is refused up front (Proxmox answers a bare 401 that would not say why).
 */
export function tokenAuthorization(tokenId: string, secret: string): string {
  if (!TOKEN_ID.test(tokenId)) {
    throw textError(serverText("proxmoxTokenIdShape", { tokenId }), {
      errorClass: "config",
      source: "Proxmox",
    });
  }
  if (secret === "" || /\s/.test(secret)) {
    throw textError(serverText("proxmoxTokenSecretInvalid", {}), {
      errorClass: "config",
      source: "Proxmox",
    });
  }
  return `PVEAPIToken=${tokenId}=${secret}`;
}
