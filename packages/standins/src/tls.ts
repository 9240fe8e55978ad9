import { generate } from "selfsigned";

/** PEM material for a stand-in server: a private CA and a server certificate it signed. */
export interface StandinTls {
  /** The CA certificate clients pass as their trusted CA (the connection's "CA PEM"). */
  caPem: string;
  /** Server certificate for `localhost`, `127.0.0.1` and `::1`, signed by the CA. */
  certPem: string;
  /** Private key of the server certificate. */
  keyPem: string;
}

let cached: Promise<StandinTls> | undefined;

/**
 * The stand-in CA and server certificate, generated once per process.
 * A real CA (not a self-signed leaf) lets tests exercise proper verification with a CA PEM,
 * exactly like a Proxmox node whose certificate the operator pins through its cluster CA.
 */
export function standinTls(): Promise<StandinTls> {
  cached ??= generateTls().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

async function generateTls(): Promise<StandinTls> {
  // EC keys: generating two RSA-2048 keys costs seconds on a small CI runner, EC costs milliseconds.
  const notBeforeDate = new Date(Date.now() - 60 * 60 * 1000);
  const notAfterDate = new Date(Date.now() + 365 * 24 * 60 * 60 * 1000);
  const ca = await generate([{ name: "commonName", value: "Hyperlens stand-in CA" }], {
    keyType: "ec",
    algorithm: "sha256",
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      {
        name: "keyUsage",
        keyCertSign: true,
        cRLSign: true,
        digitalSignature: true,
        critical: true,
      },
    ],
  });
  const server = await generate([{ name: "commonName", value: "localhost" }], {
    keyType: "ec",
    algorithm: "sha256",
    notBeforeDate,
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: "basicConstraints", cA: false, critical: true },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
          { type: 7, ip: "::1" },
        ],
      },
    ],
  });
  return { caPem: ca.cert, certPem: server.cert, keyPem: server.private };
}
