import { type MessageKey, t } from "../i18n/i18n.ts";

interface HelpSection {
  id: string;
  title: MessageKey;
  needs: MessageKey[];
  permissions: MessageKey[];
}

const SECTIONS: readonly HelpSection[] = [
  {
    id: "proxmox",
    title: "source.PROXMOX",
    needs: ["help.proxmox.needs1", "help.proxmox.needs2", "help.proxmox.needs3"],
    permissions: ["help.proxmox.perm1", "help.proxmox.perm2", "help.proxmox.perm3"],
  },
  {
    id: "director",
    title: "source.VCD",
    needs: ["help.vcd.needs1", "help.vcd.needs2"],
    permissions: ["help.vcd.perm1", "help.vcd.perm2"],
  },
  {
    id: "vcenter",
    title: "source.VCENTER",
    needs: ["help.vcenter.needs1", "help.vcenter.needs2"],
    permissions: ["help.vcenter.perm1"],
  },
];

/** What each source needs, the read-only permissions, and what a sync does and never does. */
export function HelpPage() {
  return (
    <div className="help-page">
      <h1>{t("nav.help")}</h1>
      <p>{t("help.intro")}</p>
      {SECTIONS.map((section) => (
        <section key={section.id} id={`help-${section.id}`} className="card">
          <h2>{t(section.title)}</h2>
          <h3>{t("help.needsTitle")}</h3>
          <ul>
            {section.needs.map((key) => (
              <li key={key}>{t(key)}</li>
            ))}
          </ul>
          <h3>{t("help.permissionsTitle")}</h3>
          <ul>
            {section.permissions.map((key) => (
              <li key={key}>{t(key)}</li>
            ))}
          </ul>
        </section>
      ))}
      <section className="card">
        <h2>{t("help.sync.title")}</h2>
        <h3>{t("help.sync.doesTitle")}</h3>
        <ul>
          <li>{t("help.sync.does1")}</li>
          <li>{t("help.sync.does2")}</li>
          <li>{t("help.sync.does3")}</li>
        </ul>
        <h3>{t("help.sync.neverTitle")}</h3>
        <ul>
          <li>{t("help.sync.never1")}</li>
          <li>{t("help.sync.never2")}</li>
          <li>{t("help.sync.never3")}</li>
        </ul>
      </section>
    </div>
  );
}
