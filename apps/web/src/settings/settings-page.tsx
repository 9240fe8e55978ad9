import type { ConnectionKind } from "@hyperlens/shared";
import { CONNECTION_KINDS, MANAGE_CAPABILITY } from "@hyperlens/shared";
import { useState } from "react";
import type { Viewer } from "../app.tsx";
import { t } from "../i18n/i18n.ts";
import { NotPermitted } from "../shell/not-permitted.tsx";
import { navigate } from "../shell/router.ts";
import { ConnectionCard } from "./connection-card.tsx";
import type { Connection } from "./connection-fields.ts";
import { ConnectionForm } from "./connection-form.tsx";
import { RequireTwoFactor } from "./require-two-factor.tsx";

const SLUG: Record<ConnectionKind, string> = {
  PROXMOX: "proxmox",
  VCD: "director",
  VCENTER: "vcenter",
};

/** The kind a Settings path names; the first allowed kind otherwise. */
function kindFromPath(allowed: readonly ConnectionKind[]): ConnectionKind | undefined {
  const slug = window.location.pathname.split("/")[2];
  return allowed.find((k) => SLUG[k] === slug) ?? allowed[0];
}

/** Settings: a tab per source with its connections, the add/edit form and the actions. */
export function SettingsPage(props: {
  viewer: Viewer;
  connections: readonly Connection[];
  onChanged: () => void;
}) {
  const canView = props.viewer.capabilities.includes("VIEW_INVENTORY");
  const allowed = CONNECTION_KINDS.filter(
    (k) => canView || props.viewer.capabilities.includes(MANAGE_CAPABILITY[k]),
  );
  const kind = kindFromPath(allowed);
  const [editing, setEditing] = useState<Connection | "new">();
  if (!kind) return <NotPermitted />;
  const canManage = props.viewer.capabilities.includes(MANAGE_CAPABILITY[kind]);
  const list = props.connections.filter((c) => c.kind === kind);

  return (
    <div className="settings-page">
      <h1>{t("nav.settings")}</h1>
      <div role="tablist" aria-label={t("settings.sections")} className="tabs">
        {allowed.map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={k === kind}
            onClick={() => {
              setEditing(undefined);
              navigate(`/settings/${SLUG[k]}`);
            }}
          >
            {t(`source.${k}`)}
          </button>
        ))}
      </div>
      <section role="tabpanel" aria-label={t(`source.${kind}`)}>
        {canManage && editing === undefined && (
          <button type="button" className="primary" onClick={() => setEditing("new")}>
            {t("settings.add", { kind: t(`source.${kind}`) })}
          </button>
        )}
        {editing !== undefined && (
          <ConnectionForm
            key={editing === "new" ? "new" : editing.id}
            kind={kind}
            connection={editing === "new" ? undefined : editing}
            onSaved={() => {
              setEditing(undefined);
              props.onChanged();
            }}
            onCancel={() => setEditing(undefined)}
          />
        )}
        {list.length === 0 && <p className="muted">{t("settings.noConnections")}</p>}
        {list.map((connection) => (
          <ConnectionCard
            key={connection.id}
            connection={connection}
            connections={props.connections}
            canManage={canManage}
            onEdit={() => setEditing(connection)}
            onDeleted={props.onChanged}
          />
        ))}
      </section>
      {props.viewer.capabilities.includes("MANAGE_USERS") && <RequireTwoFactor />}
    </div>
  );
}
