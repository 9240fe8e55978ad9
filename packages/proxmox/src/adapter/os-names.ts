// Proxmox `ostype` codes as people read them.
const NAMES: Record<string, string> = {
  l24: "Linux 2.4",
  l26: "Linux",
  win11: "Windows 11 / Server 2022 / 2025",
  win10: "Windows 10 / Server 2016 / 2019",
  win8: "Windows 8 / Server 2012",
  win7: "Windows 7 / Server 2008 R2",
  w2k8: "Windows Vista / Server 2008",
  w2k3: "Windows Server 2003",
  w2k: "Windows 2000",
  wxp: "Windows XP",
  wvista: "Windows Vista",
  solaris: "Solaris",
  other: "Other",
};

/** A readable OS name for a Proxmox ostype (containers name their distribution: "debian"). */
export function osName(ostype: string | null): string | undefined {
  if (!ostype) return undefined;
  return NAMES[ostype] ?? ostype.charAt(0).toUpperCase() + ostype.slice(1);
}
