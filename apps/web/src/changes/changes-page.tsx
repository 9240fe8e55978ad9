// "What changed since …" (docs/behaviour.md §9.51): the guests added, removed and changed between
// two instants, each group paged, for a preset or a chosen window.
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useClient } from "urql";
import { graphql, type ResultOf } from "../graphql/graphql.ts";
import { formatCount, formatDateTime } from "../i18n/format.ts";
import { currentLanguage, t } from "../i18n/i18n.ts";
import { AppLink } from "../shell/app-link.tsx";
import { navigate } from "../shell/router.ts";
import { SourceBadge } from "../ui/badge.tsx";
import {
  CHANGE_PRESETS,
  type ChangePreset,
  changesPath,
  parseChangeRange,
  toLocalInput,
} from "./change-range.ts";
import { fieldChanges, removalReason } from "./change-values.ts";
import { fieldLabel } from "./field-labels.ts";

const PAGE = 50;

const CHANGES = graphql(`
  query InventoryChanges($since: DateTime!, $until: DateTime, $first: Int!, $after: String,
      $added: Boolean!, $removed: Boolean!, $changed: Boolean!, $counts: Boolean!) {
    inventoryChanges(since: $since, until: $until) {
      since
      until
      counts @include(if: $counts) { added removed changed }
      added(first: $first, after: $after) @include(if: $added) { ...GuestChangePage }
      removed(first: $first, after: $after) @include(if: $removed) { ...GuestChangePage }
      changed(first: $first, after: $after) @include(if: $changed) { ...GuestChangePage }
    }
  }
  fragment GuestChangePage on GuestChangeConnection {
    pageInfo { hasNextPage endCursor }
    edges { node { at changes reasonText { code params message } vm { id name source connection { name } } } }
  }
`);

type Kind = "added" | "removed" | "changed";
const KINDS: readonly Kind[] = ["added", "removed", "changed"];
type Data = ResultOf<typeof CHANGES>["inventoryChanges"];
type Entry = NonNullable<Data["added"]>["edges"][number]["node"];
interface Group {
  entries: Entry[];
  endCursor: string | null;
  hasMore: boolean;
}

const HEADINGS = {
  added: "changes.added",
  removed: "changes.removed",
  changed: "changes.changed",
} as const;

const PRESET_LABELS: Record<ChangePreset, "changes.last1h" | "changes.last24h" | "changes.last7d"> =
  { "1h": "changes.last1h", "24h": "changes.last24h", "7d": "changes.last7d" };

const only = (kind: Kind | undefined) => ({
  added: !kind || kind === "added",
  removed: !kind || kind === "removed",
  changed: !kind || kind === "changed",
  counts: !kind,
});

/** The page: the window's form, then the three groups. */
export function ChangesPage(props: { params: URLSearchParams }) {
  const client = useClient();
  const locale = currentLanguage();
  const search = props.params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: "now" is read again when the address changes
  const now = useMemo(() => new Date(), [search]);
  const range = parseChangeRange(props.params, now);
  const [counts, setCounts] = useState<Data["counts"]>();
  const [groups, setGroups] = useState<Partial<Record<Kind, Group>>>({});
  const [failure, setFailure] = useState<string>();

  const span = "error" in range ? undefined : range;
  const variables = span && {
    since: span.since.toISOString(),
    until: (span.until ?? now).toISOString(),
    first: PAGE,
  };

  const load = async (kind?: Kind, after?: string | null) => {
    if (!variables) return;
    const result = await client
      .query(CHANGES, { ...variables, after, ...only(kind) }, { requestPolicy: "network-only" })
      .toPromise();
    if (!result.data) {
      setFailure(result.error?.graphQLErrors[0]?.message ?? t("common.failed"));
      return;
    }
    const data = result.data.inventoryChanges;
    if (!kind) setCounts(data.counts);
    setGroups((current) => {
      const next = kind ? { ...current } : {};
      for (const k of KINDS) {
        const page = data[k];
        if (!page) continue;
        const before = kind ? (current[k]?.entries ?? []) : [];
        next[k] = {
          entries: [...before, ...page.edges.map((e) => e.node)],
          endCursor: page.pageInfo.endCursor,
          hasMore: page.pageInfo.hasNextPage,
        };
      }
      return next;
    });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the address is the window
  useEffect(() => {
    setFailure(undefined);
    setCounts(undefined);
    setGroups({});
    void load();
  }, [search]);

  return (
    <div className="changes-page">
      <div className="page-head">
        <h1>{t("changes.title")}</h1>
        <AppLink href="/servers">{t("changes.back")}</AppLink>
      </div>
      <WindowForm since={span?.since} until={span?.until} preset={span?.preset} key={search} />
      {"error" in range && <p role="alert">{t(range.error)}</p>}
      {failure && <p role="alert">{failure}</p>}
      {span && (
        <p className="muted">
          {t("changes.window", {
            since: formatDateTime(locale, span.since.toISOString()),
            until: span.until ? formatDateTime(locale, span.until.toISOString()) : t("changes.now"),
          })}
        </p>
      )}
      {counts &&
        KINDS.map((kind) => (
          <section key={kind} className="change-group" aria-labelledby={`changes-${kind}`}>
            <h2 id={`changes-${kind}`}>
              {t(HEADINGS[kind], { count: formatCount(locale, counts[kind]) })}
            </h2>
            <ChangeList kind={kind} group={groups[kind]} />
            {groups[kind]?.hasMore && (
              <button type="button" onClick={() => void load(kind, groups[kind]?.endCursor)}>
                {t("changes.more")}
              </button>
            )}
          </section>
        ))}
    </div>
  );
}

function ChangeList(props: { kind: Kind; group: Group | undefined }) {
  const locale = currentLanguage();
  if (!props.group?.entries.length) return <p className="muted">{t("changes.none")}</p>;
  return (
    <ul className="change-list">
      {props.group.entries.map((entry) => {
        const reason =
          props.kind === "removed" ? removalReason(entry.changes, entry.reasonText) : undefined;
        const fields = props.kind === "changed" ? fieldChanges(entry.changes) : [];
        return (
          <li key={entry.vm.id}>
            <strong>{entry.vm.name}</strong> <SourceBadge source={entry.vm.source} />{" "}
            <span className="muted">{entry.vm.connection.name}</span>{" "}
            <time className="muted" dateTime={entry.at}>
              {formatDateTime(locale, entry.at)}
            </time>
            {reason && <div className="muted">{t("changes.reason", { reason })}</div>}
            {fields.length > 0 && (
              <ul className="change-fields">
                {fields.map(([field, from, to]) => (
                  <li key={field}>
                    <span title={field}>{fieldLabel(field)}</span>: {from} → {to}
                  </li>
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** Presets as links, and a chosen window as two local date-times. */
function WindowForm(props: { since?: Date; until?: Date; preset?: ChangePreset }) {
  const [since, setSince] = useState(props.since && !props.preset ? toLocalInput(props.since) : "");
  const [until, setUntil] = useState(props.until ? toLocalInput(props.until) : "");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(changesPath({ since, until: until || undefined }));
  };
  return (
    <div className="change-window">
      <nav aria-label={t("changes.presets")} className="change-presets">
        {(Object.keys(CHANGE_PRESETS) as ChangePreset[]).map((preset) => (
          <AppLink
            key={preset}
            href={changesPath({ since: preset })}
            aria-current={props.preset === preset ? "page" : undefined}
          >
            {t(PRESET_LABELS[preset])}
          </AppLink>
        ))}
      </nav>
      <form onSubmit={submit} className="change-custom">
        <label>
          {t("changes.since")}
          <input
            type="datetime-local"
            name="since"
            required
            value={since}
            onChange={(e) => setSince(e.target.value)}
          />
        </label>
        <label>
          {t("changes.until")}
          <input
            type="datetime-local"
            name="until"
            value={until}
            aria-describedby="changes-until-hint"
            onChange={(e) => setUntil(e.target.value)}
          />
        </label>
        <span id="changes-until-hint" className="muted">
          {t("changes.untilHint")}
        </span>
        <button type="submit">{t("changes.show")}</button>
      </form>
    </div>
  );
}
