import { generate } from "selfsigned";

/** PEM key + certificate for a test server. */
export interface TestCert {
  key: string;
  cert: string;
}

/** The certificates the TLS tests need, generated fresh (EC keys: fast). */
export interface TestCertificates {
  ca: TestCert;
  /** Signed by `ca`, valid for localhost and 127.0.0.1. */
  caSigned: TestCert;
  /** Self-signed, valid for localhost and 127.0.0.1. */
  selfSigned: TestCert;
  /** Signed by `ca` but expired yesterday. */
  expired: TestCert;
  /** Signed by `ca`, valid only for pve.other.example. */
  wrongHost: TestCert;
}

const LOCAL_NAMES = [
  { type: 2 as const, value: "localhost" },
  { type: 7 as const, ip: "127.0.0.1" },
];
const DAY = 24 * 60 * 60 * 1000;

/** Generates a CA and leaf certificates for TLS tests. */
export async function createTestCertificates(): Promise<TestCertificates> {
  const ca = await generate([{ name: "commonName", value: "Hyperlens Test CA" }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, digitalSignature: true },
    ],
  });
  const caPair = { key: ca.private, cert: ca.cert };
  const leaf = async (
    names: { type: 2 | 7; value?: string; ip?: string }[],
    signer: TestCert | undefined,
    notBeforeDate?: Date,
    notAfterDate?: Date,
  ): Promise<TestCert> => {
    const made = await generate([{ name: "commonName", value: names[0]?.value ?? "localhost" }], {
      keyType: "ec",
      algorithm: "sha256",
      extensions: [
        { name: "basicConstraints", cA: false },
        { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
        { name: "extKeyUsage", serverAuth: true },
        { name: "subjectAltName", altNames: names },
      ],
      ...(signer ? { ca: { key: signer.key, cert: signer.cert } } : {}),
      ...(notBeforeDate ? { notBeforeDate } : {}),
      ...(notAfterDate ? { notAfterDate } : {}),
    });
    return { key: made.private, cert: made.cert };
  };
  const now = Date.now();
  return {
    ca: caPair,
    caSigned: await leaf(LOCAL_NAMES, caPair),
    selfSigned: await leaf(LOCAL_NAMES, undefined),
    expired: await leaf(LOCAL_NAMES, caPair, new Date(now - 10 * DAY), new Date(now - DAY)),
    wrongHost: await leaf([{ type: 2, value: "pve.other.example" }], caPair),
  };
}
