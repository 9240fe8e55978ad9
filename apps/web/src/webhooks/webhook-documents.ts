// The webhook endpoints an administrator manages, and what the Webhooks page asks of the API
// (docs/api.md, Webhooks; docs/behaviour.md §14.20–§14.29).
import { graphql, type ResultOf } from "../graphql/graphql.ts";
import { ValidationErrorFields } from "../graphql/validation-error.ts";

export const WebhookEndpointFields = graphql(`
  fragment WebhookEndpointFields on WebhookEndpoint {
    id
    url
    description
    eventTypes
    connectionIds
    isEnabled
    disabledReason
    lastDeliveredSequence
    failedAttempts
    nextAttemptAt
    failingSince
    createdAt
    deliveries { at eventId eventType eventSequence attempt outcome statusCode latencyMs error }
  }
`);

/** An endpoint as the page shows it, with its newest delivery attempts. */
export type WebhookEndpoint = ResultOf<typeof WebhookEndpointFields>;

/** One attempt in an endpoint's delivery log. */
export type WebhookDelivery = WebhookEndpoint["deliveries"][number];

export const WEBHOOK_ENDPOINTS = graphql(
  `
  query WebhookEndpoints { webhookEndpoints { ...WebhookEndpointFields } }
`,
  [WebhookEndpointFields],
);

export const CREATE_WEBHOOK = graphql(
  `
  mutation CreateWebhookEndpoint($input: WebhookEndpointInput!) {
    result: createWebhookEndpoint(input: $input) {
      __typename
      ...ValidationErrorFields
      ... on MutationCreateWebhookEndpointSuccess { data { secret endpoint { id url } } }
    }
  }
`,
  [ValidationErrorFields],
);

export const UPDATE_WEBHOOK = graphql(
  `
  mutation UpdateWebhookEndpoint($id: ID!, $input: WebhookEndpointInput!) {
    result: updateWebhookEndpoint(id: $id, input: $input) {
      __typename
      ...ValidationErrorFields
      ... on MutationUpdateWebhookEndpointSuccess { data { id } }
    }
  }
`,
  [ValidationErrorFields],
);

export const DELETE_WEBHOOK = graphql(`
  mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }
`);

export const ROTATE_WEBHOOK_SECRET = graphql(`
  mutation RotateWebhookSecret($id: ID!) {
    rotateWebhookSecret(id: $id) { secret endpoint { id url } }
  }
`);

export const SEND_TEST_WEBHOOK = graphql(`
  mutation SendTestWebhook($id: ID!) {
    sendTestWebhook(id: $id) { isDelivered statusCode latencyMs error }
  }
`);

/** How a test event went. */
export type WebhookTestResult = ResultOf<typeof SEND_TEST_WEBHOOK>["sendTestWebhook"];
