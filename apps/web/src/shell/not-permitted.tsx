import { t } from "../i18n/i18n.ts";

/** What a page the viewer may not open shows instead, when it is asked for by its address. */
export function NotPermitted() {
  return <p role="alert">{t("common.forbidden")}</p>;
}
