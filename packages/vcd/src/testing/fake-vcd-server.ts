// A small local HTTPS Cloud Director for client tests: CloudAPI sessions (tenant/provider, 406 on
// unknown versions), the VM query with a page cap or an explicit page layout, NIC and disk sections
// shaped like the recorded fixtures, paged CloudAPI edge gateways, and fault switches.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { generate } from "selfsigned";
import { readHttpFixture } from "./fixtures.ts";

/** Settings and fault switches of the fake. */
export interface FakeVcdOptions {
  vmCount?: number;
  /** Templates listed after the VMs (they count toward total). */
  templateCount?: number;
  /** Director's own maximum page size (default 25). */
  pageCap?: number;
  /** Records per page, in order (overrides pageCap): [25, 10, 25] has a short page 2. */
  pageLayout?: number[];
  /** `total` the query reports (default: the real count). */
  reportedTotal?: number;
  failVmPage?: number;
  /** Section reads of this VM number (0-based) answer 500. */
  failSectionOfVm?: number;
  edgeGatewayCount?: number;
  edgePageCap?: number;
  omitPageCount?: boolean;
  failEdgePage?: number;
  /** API versions the server speaks (default 37.0–39.0). */
  versions?: string[];
  logoutStatus?: number;
}

/** The running fake. */
export interface FakeVcdServer {
  url: string;
  caPem: string;
  requests: { method: string; url: string; headers: IncomingMessage["headers"] }[];
  /** Session ids logged in and not logged out. */
  openSessions: Set<string>;
  logins: number;
  logouts: number;
  /** Invalidates every token (as an expired session would be). */
  expireTokens(): void;
  close(): Promise<void>;
}

/** Tenant credentials the fake accepts. */
export const TENANT = { username: "inventory@acme", password: "tenant-pass-1" };
/** Provider credentials the fake accepts. */
export const PROVIDER = { username: "admin@System", password: "provider-pass-1" };

const PUBLIC = "https://vcd.example.com";

function uuid(kind: number, n: number): string {
  const hex = n.toString(16).padStart(12, "0");
  return `${kind.toString(16).padStart(8, "0")}-0000-4000-8000-${hex}`;
}

/** The href of fake VM `n` (on Director's public address, not the test server's). */
export function fakeVmHref(n: number): string {
  return `${PUBLIC}/api/vApp/vm-${uuid(1, n)}`;
}

/** The MAC of fake VM `n`. */
export function fakeVmMac(n: number): string {
  return `00:50:56:01:${((n >> 8) & 0xff).toString(16).padStart(2, "0")}:${(n & 0xff).toString(16).padStart(2, "0")}`;
}

/** Starts the fake on 127.0.0.1. */
export async function startFakeVcd(options: FakeVcdOptions = {}): Promise<FakeVcdServer> {
  const cert = await generate([{ name: "commonName", value: "localhost" }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
  });
  const versions = options.versions ?? ["37.0", "38.0", "38.1", "39.0"];
  const tokens = new Map<string, string>();
  const state = {
    requests: [] as FakeVcdServer["requests"],
    openSessions: new Set<string>(),
    logins: 0,
    logouts: 0,
  };
  let next = 0;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "https://fake");
    const path = url.pathname;
    state.requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    const accept = String(req.headers.accept ?? "");
    const version = /version=([\d.]+)/.exec(accept)?.[1];

    if (req.method === "GET" && path === "/api/versions") {
      const infos = versions
        .map((v) => `<VersionInfo deprecated="false"><Version>${v}</Version></VersionInfo>`)
        .join("");
      return send(
        res,
        200,
        "application/*+xml",
        `<SupportedVersions xmlns="http://www.vmware.com/vcloud/versions">${infos}</SupportedVersions>`,
      );
    }
    if (req.method === "POST" && /^\/cloudapi\/1\.0\.0\/sessions(\/provider)?$/.test(path)) {
      if (!version || !versions.includes(version)) {
        return sendJson(res, 406, {
          minorErrorCode: "NOT_ACCEPTABLE",
          message: `The request has invalid accept header: Invalid API version requested: ${version}`,
        });
      }
      const isProviderPath = path.endsWith("/provider");
      const basic = String(req.headers.authorization ?? "").replace(/^Basic /, "");
      const [user, password] = Buffer.from(basic, "base64").toString("utf8").split(/:(.*)/s);
      const creds = isProviderPath ? PROVIDER : TENANT;
      if (user !== creds.username || password !== creds.password) {
        const fixture = isProviderPath
          ? "cloudapi_sessions/POST.401.http"
          : "cloudapi_sessions/POST.401.provider-endpoint-required.http";
        const answer = readHttpFixture(fixture);
        return send(res, 401, answer.headers["content-type"] ?? "application/json", "");
      }
      state.logins++;
      next++;
      const id = `urn:vcloud:session:${uuid(9, next)}`;
      const token = `jwt.${next}.${Math.random().toString(36).slice(2)}`;
      tokens.set(token, id);
      state.openSessions.add(id);
      const body = JSON.parse(readHttpFixture("cloudapi_sessions/POST.200.tenant.http").body);
      body.id = id;
      body.org.name = creds.username.split("@")[1];
      res.setHeader("X-VMWARE-VCLOUD-ACCESS-TOKEN", token);
      return sendJson(res, 200, body);
    }

    const bearer = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
    const sessionId = tokens.get(bearer);
    if (!sessionId) return send(res, 401, "application/json", "");

    if (req.method === "DELETE" && path.startsWith("/cloudapi/1.0.0/sessions/")) {
      if (options.logoutStatus && options.logoutStatus >= 400) {
        return sendJson(res, options.logoutStatus, { message: "logout broke" });
      }
      const target = decodeURIComponent(path.slice("/cloudapi/1.0.0/sessions/".length));
      const id = target === "current" ? sessionId : target;
      if (id !== sessionId) return sendJson(res, 403, { message: "not your session" });
      state.logouts++;
      state.openSessions.delete(id);
      tokens.delete(bearer);
      return send(res, 204, "application/json", "");
    }
    if (req.method !== "GET") return sendJson(res, 405, { message: "read-only fake" });

    const isXml = path.startsWith("/api/");
    if (
      isXml
        ? !accept.startsWith("application/*+xml;version=")
        : !accept.startsWith("application/json;version=")
    ) {
      return sendJson(res, 406, { message: `wrong Accept ${accept}` });
    }
    if (path === "/api/query") return queryPage(url, res);
    const section =
      /^\/api\/vApp\/vm-([0-9a-f-]{36})\/(networkConnectionSection\/|virtualHardwareSection\/disks)$/.exec(
        path,
      );
    if (section) return vmSection(section[1] ?? "", section[2] ?? "", res);
    if (path === "/cloudapi/1.0.0/edgeGateways") return edgePage(url, res);
    return sendXmlError(res, 404, `Resource not found: ${path}`);
  };

  const vmCount = options.vmCount ?? 0;
  const templateCount = options.templateCount ?? 0;

  function queryPage(url: URL, res: ServerResponse) {
    const type = url.searchParams.get("type") ?? "";
    const page = Number(url.searchParams.get("page") ?? "1");
    const asked = Number(url.searchParams.get("pageSize") ?? "25");
    if (type !== "vm" && type !== "adminVM") return sendXmlError(res, 400, `unknown type ${type}`);
    if (options.failVmPage === page)
      return sendXmlError(res, 500, "Internal Server Error: query page broke");
    const used = Math.min(asked, options.pageCap ?? 25);
    const layout = options.pageLayout;
    const start = layout ? layout.slice(0, page - 1).reduce((a, b) => a + b, 0) : (page - 1) * used;
    const count = layout ? (layout[page - 1] ?? 0) : used;
    const all = vmCount + templateCount;
    const element = type === "adminVM" ? "AdminVMRecord" : "VMRecord";
    const records: string[] = [];
    for (let i = start; i < Math.min(all, start + count); i++) records.push(vmRecord(i, element));
    const total = options.reportedTotal ?? all;
    const body = `<?xml version="1.0" encoding="UTF-8"?>
<QueryResultRecords xmlns="http://www.vmware.com/vcloud/v1.5" name="vm" page="${page}" pageSize="${used}" total="${total}" type="application/vnd.vmware.vcloud.query.records+xml">
${start + count < all ? `<Link rel="nextPage" href="${PUBLIC}/api/query?type=${type}&amp;page=${page + 1}"/>` : ""}
${records.join("\n")}
</QueryResultRecords>`;
    send(res, 200, "application/vnd.vmware.vcloud.query.records+xml;version=38.0", body);
  }

  function vmRecord(i: number, element: string): string {
    const isTemplate = i >= vmCount;
    const href = isTemplate ? `${PUBLIC}/api/vAppTemplate/vm-${uuid(2, i)}` : fakeVmHref(i);
    const admin =
      element === "AdminVMRecord"
        ? ` moref="vm-${1000 + i}" vc="${PUBLIC}/api/admin/extension/vimServer/${uuid(7, 1)}" hostName="esx0${i % 3}.lab" datastoreName="ds1"`
        : "";
    return `<${element} name="vm-${i}" href="${href}" status="${i % 2 ? "POWERED_OFF" : "POWERED_ON"}" numberOfCpus="${1 + (i % 4)}" memoryMB="${1024 * (1 + (i % 4))}" guestOs="Ubuntu Linux (64-bit)" container="${PUBLIC}/api/vApp/vapp-${uuid(3, i >> 2)}" containerName="vapp-${i >> 2}" vdc="${PUBLIC}/api/vdc/${uuid(4, 1)}" vdcName="acme-vdc" isDeployed="${i % 2 ? "false" : "true"}" isVAppTemplate="${isTemplate}"${admin}/>`;
  }

  function vmSection(id: string, section: string, res: ServerResponse) {
    const n = Number.parseInt(id.slice(-12), 16);
    if (!id.startsWith(uuid(1, 0).slice(0, 8)) || n >= vmCount) {
      return sendXmlError(
        res,
        403,
        "Either you need some or all of the following rights [VAPP_VIEW] or the target entity is invalid.",
      );
    }
    if (options.failSectionOfVm === n) return sendXmlError(res, 500, "section broke");
    const fixture = section.startsWith("network")
      ? "vm_networkConnectionSection/GET.200.vm-84faa107-c0b9-4a21-adc5-b17e0c5355a2.http"
      : "vm_disks/GET.200.vm-84faa107-c0b9-4a21-adc5-b17e0c5355a2.http";
    const answer = readHttpFixture(fixture);
    const body = answer.body
      .replace(/vm-84faa107-c0b9-4a21-adc5-b17e0c5355a2/g, `vm-${id}`)
      .replace("00:50:56:01:00:0c", fakeVmMac(n))
      .replace("192.168.2.100", `10.0.${(n >> 8) & 0xff}.${n & 0xff}`)
      .replace('ns13:capacity="10240"', `ns13:capacity="${10240 + n}"`);
    send(res, 200, answer.headers["content-type"] ?? "application/*+xml", body);
  }

  function edgePage(url: URL, res: ServerResponse) {
    const page = Number(url.searchParams.get("page") ?? "1");
    if (options.failEdgePage === page)
      return sendJson(res, 500, { minorErrorCode: "INTERNAL", message: "edge page broke" });
    const size = Math.min(
      Number(url.searchParams.get("pageSize") ?? "25"),
      options.edgePageCap ?? 25,
    );
    const total = options.edgeGatewayCount ?? 0;
    const pageCount = Math.ceil(total / size);
    const values = [];
    for (let i = (page - 1) * size; i < Math.min(total, page * size); i++) {
      const isGroup = i % 2 === 1;
      values.push({
        id: `urn:vcloud:gateway:${uuid(5, i)}`,
        name: `edge-${i}`,
        status: "REALIZED",
        orgRef: { name: "acme", id: `urn:vcloud:org:${uuid(6, 1)}` },
        ownerRef: isGroup
          ? { name: "acme-group", id: `urn:vcloud:vdcGroup:${uuid(8, 1)}` }
          : { name: "acme-vdc", id: `urn:vcloud:vdc:${uuid(4, 1)}` },
      });
    }
    if (page < pageCount) {
      res.setHeader(
        "Link",
        `<${PUBLIC}/cloudapi/1.0.0/edgeGateways?page=${page + 1}&pageSize=${size}>;rel="nextPage";type="application/json";model="EdgeGateways"`,
      );
    }
    sendJson(res, 200, {
      resultTotal: total,
      ...(options.omitPageCount ? {} : { pageCount }),
      page,
      pageSize: size,
      associations: null,
      values,
    });
  }

  const server = createServer({ key: cert.private, cert: cert.cert }, (req, res) => {
    req.resume();
    req.on("end", () => handle(req, res));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    caPem: cert.cert,
    get requests() {
      return state.requests;
    },
    get openSessions() {
      return state.openSessions;
    },
    get logins() {
      return state.logins;
    },
    get logouts() {
      return state.logouts;
    },
    expireTokens: () => tokens.clear(),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    "content-type": type,
    "content-length": String(Buffer.byteLength(body)),
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, "application/json;version=38.0", JSON.stringify(body));
}

function sendXmlError(res: ServerResponse, status: number, message: string): void {
  send(
    res,
    status,
    "application/vnd.vmware.vcloud.error+xml;version=38.0",
    `<?xml version="1.0" encoding="UTF-8"?><Error xmlns="http://www.vmware.com/vcloud/v1.5" minorErrorCode="${status === 403 ? "ACCESS_TO_RESOURCE_IS_FORBIDDEN" : "INTERNAL_SERVER_ERROR"}" message="${message}" majorErrorCode="${status}"/>`,
  );
}
