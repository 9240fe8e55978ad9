/** Namespace URIs of Director's XML (fixtures/README.md §2). */
export const NS = {
  vcloud: "http://www.vmware.com/vcloud/v1.5",
  ovf: "http://schemas.dmtf.org/ovf/envelope/1",
  rasd: "http://schemas.dmtf.org/wbem/wscim/1/cim-schema/2/CIM_ResourceAllocationSettingData",
  vssd: "http://schemas.dmtf.org/wbem/wscim/1/cim-schema/2/CIM_VirtualSystemSettingData",
  vmw: "http://www.vmware.com/schema/ovf",
  xsi: "http://www.w3.org/2001/XMLSchema-instance",
  versions: "http://www.vmware.com/vcloud/versions",
} as const;

/**
 * Which prefixes answers use: `real` copies Director (vCloud as the default namespace, `rasd:`,
 * `ns13:capacity` declared on the element), `unusual` binds every namespace to a different
 * prefix so a client matching prefixes instead of local names breaks visibly.
 */
export type NamespaceStyle = "real" | "unusual";

/** Prefixes of one style; an empty `vcloud` means the default namespace. */
export interface Prefixes {
  vcloud: string;
  ovf: string;
  rasd: string;
  vssd: string;
  vmw: string;
  /** Prefix of the vCloud-namespace attributes on `rasd:HostResource` (`capacity`, `busType`). */
  hostResource: string;
  /** True when `hostResource` must be declared on the element itself, as Director does. */
  hostResourceDeclaredLocally: boolean;
}

const STYLES: Record<NamespaceStyle, Prefixes> = {
  real: {
    vcloud: "",
    ovf: "ovf",
    rasd: "rasd",
    vssd: "vssd",
    vmw: "vmw",
    hostResource: "ns13",
    hostResourceDeclaredLocally: true,
  },
  unusual: {
    vcloud: "ns7",
    ovf: "o",
    rasd: "r",
    vssd: "s",
    vmw: "w",
    hostResource: "ns7",
    hostResourceDeclaredLocally: false,
  },
};

/** The prefixes of a style. */
export function prefixesOf(style: NamespaceStyle): Prefixes {
  return STYLES[style];
}

/** `name` qualified with `prefix` (unqualified for the default namespace). */
export function qualify(prefix: string, name: string): string {
  return prefix === "" ? name : `${prefix}:${name}`;
}

/** The `xmlns…` declarations a root element carries in this style. */
export function rootDeclarations(p: Prefixes): string {
  const main = p.vcloud === "" ? `xmlns="${NS.vcloud}"` : `xmlns:${p.vcloud}="${NS.vcloud}"`;
  return [
    main,
    `xmlns:${p.ovf}="${NS.ovf}"`,
    `xmlns:${p.vssd}="${NS.vssd}"`,
    `xmlns:${p.rasd}="${NS.rasd}"`,
    `xmlns:${p.vmw}="${NS.vmw}"`,
  ].join(" ");
}
