import { useQuery } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { t } from "../i18n/i18n.ts";

const EDGE_GATEWAYS = graphql(`
  query EdgeGateways($connectionId: ID) {
    edgeGateways(connectionId: $connectionId) {
      id name orgName ownerType ownerName externalId lastSeenAt
    }
  }
`);

/** The edge gateways a Director connection saw, with the VDC or VDC group that owns each. */
export function EdgeGateways(props: { connectionId: string }) {
  const [{ data, error }] = useQuery({
    query: EDGE_GATEWAYS,
    variables: { connectionId: props.connectionId },
    requestPolicy: "cache-and-network",
  });
  const gateways = data?.edgeGateways ?? [];
  return (
    <section className="edge-gateways">
      <h4>{t("settings.edgeGateways")}</h4>
      {error && <p role="alert">{error.message}</p>}
      {data && gateways.length === 0 && <p className="muted">{t("settings.noEdgeGateways")}</p>}
      {gateways.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">{t("settings.gateway.name")}</th>
              <th scope="col">{t("settings.gateway.org")}</th>
              <th scope="col">{t("settings.gateway.owner")}</th>
            </tr>
          </thead>
          <tbody>
            {gateways.map((g) => (
              <tr key={g.id}>
                <td>{g.name}</td>
                <td>{g.orgName ?? "—"}</td>
                <td>
                  {g.ownerName ?? "—"}{" "}
                  {g.ownerType && (
                    <span className="muted">
                      (
                      {g.ownerType === "VDC_GROUP"
                        ? t("settings.gateway.vdcGroup")
                        : t("settings.gateway.vdc")}
                      )
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
