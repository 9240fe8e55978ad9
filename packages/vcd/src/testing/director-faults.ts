// Director's ways of failing or misreporting, played through the stand-in's fault switches: a
// query or edge gateway page that answers 500 (and keeps doing so when retried), VM sections that
// answer 500, and query pages whose `total` or records differ from what the stand-in holds.
import type { VcdStandin } from "@hyperlens/standins/testing";

const XML_ERROR = "application/vnd.vmware.vcloud.error+xml;version=38.0";

/** Director's XML error body. */
function xmlError(status: number, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Error xmlns="http://www.vmware.com/vcloud/v1.5" minorErrorCode="INTERNAL_SERVER_ERROR" message="${message}" majorErrorCode="${status}"/>`;
}

/** The `nth` VM query request, and every one after it, answers 500 with `message`. */
export function failQueryPage(standin: VcdStandin, nth: number, message: string): void {
  standin.faults.fail("/api/query", 500, {
    nth,
    times: Number.POSITIVE_INFINITY,
    headers: { "Content-Type": XML_ERROR },
    body: xmlError(500, message),
  });
}

/** The `nth` edge gateway page request, and every one after it, answers 500 with `message`. */
export function failEdgeGatewayPage(standin: VcdStandin, nth: number, message: string): void {
  standin.faults.fail("/cloudapi/1.0.0/edgeGateways", 500, {
    nth,
    times: Number.POSITIVE_INFINITY,
    headers: { "Content-Type": "application/json;version=38.0" },
    body: JSON.stringify({ minorErrorCode: "INTERNAL", message, stackTrace: null }),
  });
}

/** Every section read of the VM with this id answers 500 with `message`. */
export function failVmSections(standin: VcdStandin, vmId: string, message: string): void {
  standin.faults.fail(`/api/vApp/vm-${vmId}/**`, 500, {
    headers: { "Content-Type": XML_ERROR },
    body: xmlError(500, message),
  });
}

/** How query pages are misreported. */
export interface QueryPageEdits {
  /** The `total` every page reports instead of the real count. */
  total?: number;
  /** Records kept on a page (by page number), the rest left out, as for records the user may not see. */
  recordsOnPage?: Record<number, number>;
}

/** Every VM query page is answered as the stand-in renders it, then edited as `edits` says. */
export function misreportQueryPages(standin: VcdStandin, edits: QueryPageEdits): void {
  standin.faults.rewrite("/api/query", (body) => {
    let edited = body;
    if (edits.total !== undefined)
      edited = edited.replace(/ total="\d+"/, ` total="${edits.total}"`);
    const page = Number(/ page="(\d+)"/.exec(edited)?.[1]);
    const keep = edits.recordsOnPage?.[page];
    if (keep === undefined) return edited;
    let seen = 0;
    return edited.replace(/^\s*<[\w:]*VMRecord [^>]*\/>\n/gm, (line) =>
      ++seen > keep ? "" : line,
    );
  });
}
