// The sign-in form's "Sign in with" choice: the local account, or a directory (LDAP, Active
// Directory) whose user name and password the same form takes. Shown only when a directory is
// configured; single sign-on providers with their own pages have buttons of their own.
import { useQuery } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { t } from "../i18n/i18n.ts";

const DIRECTORY_PROVIDERS = graphql(`
  query DirectoryProviders {
    signInProviders { slug kind displayName }
  }
`);

/** The chosen directory's slug, or "" for the local account. */
export function DirectoryChoice(props: { value: string; onChange: (slug: string) => void }) {
  const [{ data }] = useQuery({ query: DIRECTORY_PROVIDERS });
  const directories = (data?.signInProviders ?? []).filter((p) => p.kind === "LDAP");
  if (directories.length === 0) return null;
  return (
    <div className="field">
      <label htmlFor="auth-directory">{t("directorySignIn.accountKind")}</label>
      <select
        id="auth-directory"
        name="directory"
        value={props.value}
        onChange={(event) => props.onChange(event.currentTarget.value)}
      >
        <option value="">{t("directorySignIn.localAccount")}</option>
        {directories.map((p) => (
          <option key={p.slug} value={p.slug}>
            {p.displayName}
          </option>
        ))}
      </select>
    </div>
  );
}
