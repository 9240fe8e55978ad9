import { type ConnectionKind, MANAGE_CAPABILITY } from "@hyperlens/shared";
import { useState } from "react";
import { AddressRulesPage } from "../address-rules/address-rules-page.tsx";
import type { Viewer } from "../app.tsx";
import { t } from "../i18n/i18n.ts";
import { NotPermitted } from "../shell/not-permitted.tsx";
import { navigate } from "../shell/router.ts";
import { ConnectionCard } from "./connection-card.tsx";
import type { Connection } from "./connection-fields.ts";
import { ConnectionForm } from "./connection-form.tsx";
import { RequireTwoFactor } from "./require-two-factor.tsx";
import { type SettingsTab, settingsTabs, tabOfPath, tabPath } from "./settings-tabs.ts";

const TAB_LABEL = (tab: SettingsTab) =>
  tab === "ADDRESS_RULES" ? t("addressRules.title") : t(`source.${tab}`);

/** One source's tab: its connections, and adding and editing them for those who manage it. */
function ConnectionsTab(props: {
  kind: ConnectionKind;
  viewer: Viewer;
  connections: readonly Connection[];
  editing: Connection | "new" | undefined;
  onEditing: (editing: Connection | "new" | undefined) => void;
  onChanged: () => void;
}) {
  const canManage = props.viewer.capabilities.includes(MANAGE_CAPABILITY[props.kind]);
  const list = props.connections.filter((c) => c.kind === props.kind);
  const [saves, setSaves] = useState<Record<string, number>>({});
  return (
    <>
      {canManage && props.editing === undefined && (
        <button type="button" className="primary" onClick={() => props.onEditing("new")}>
          {t("settings.add", { kind: t(`source.${props.kind}`) })}
        </button>
      )}
      {props.editing !== undefined && (
        <ConnectionForm
          key={props.editing === "new" ? "new" : props.editing.id}
          kind={props.kind}
          connection={props.editing === "new" ? undefined : props.editing}
          onSaved={(saved) => {
            setSaves((n) => ({ ...n, [saved.id]: (n[saved.id] ?? 0) + 1 }));
            props.onEditing(undefined);
            props.onChanged();
          }}
          onCancel={() => props.onEditing(undefined)}
        />
      )}
      {list.length === 0 && <p className="muted">{t("settings.noConnections")}</p>}
      {list.map((connection) => (
        <ConnectionCard
          // A saved edit starts the card afresh: a Test result or error of before no longer holds.
          key={`${connection.id}:${saves[connection.id] ?? 0}`}
          connection={connection}
          connections={props.connections}
          canManage={canManage}
          onEdit={() => props.onEditing(connection)}
          onDeleted={props.onChanged}
        />
      ))}
    </>
  );
}

/**
 * Settings: a tab per source with its connections, the add/edit form and the actions, and the
 * address rules for administrators.
 */
export function SettingsPage(props: {
  viewer: Viewer;
  connections: readonly Connection[];
  onChanged: () => void;
}) {
  const allowed = settingsTabs(props.viewer);
  const { tab, isRefused } = tabOfPath(window.location.pathname, allowed);
  const [editing, setEditing] = useState<Connection | "new">();
  if (isRefused || !tab) return <NotPermitted />;

  return (
    <div className="settings-page">
      <h1>{t("nav.settings")}</h1>
      <div role="tablist" aria-label={t("settings.sections")} className="tabs">
        {allowed.map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={k === tab}
            onClick={() => {
              setEditing(undefined);
              navigate(tabPath(k));
            }}
          >
            {TAB_LABEL(k)}
          </button>
        ))}
      </div>
      <section role="tabpanel" aria-label={TAB_LABEL(tab)}>
        {tab === "ADDRESS_RULES" ? (
          <AddressRulesPage />
        ) : (
          <ConnectionsTab
            kind={tab}
            viewer={props.viewer}
            connections={props.connections}
            editing={editing}
            onEditing={setEditing}
            onChanged={props.onChanged}
          />
        )}
      </section>
      {props.viewer.capabilities.includes("MANAGE_USERS") && <RequireTwoFactor />}
    </div>
  );
}
