// What the address rules editor asks of the API (docs/api.md, Address rules; docs/behaviour.md
// §9.41, §10.9).
import { graphql, type ResultOf } from "../graphql/graphql.ts";
import { ValidationErrorFields } from "../graphql/validation-error.ts";

export const AddressRulesFields = graphql(`
  fragment AddressRulesFields on AddressRules {
    ignoredInterfaces
    permittedSubnets
    ignoredSubnets
    dropLinkLocal
    keepUnmatchedMac
    primary { preferredSubnets family origin }
  }
`);

export const AddressRulesPreviewFields = graphql(`
  fragment AddressRulesPreviewFields on AddressRulesPreview {
    vmCount
    changedVmCount
    addedCount
    droppedCount
    primaryChangedCount
    isTruncated
    changes {
      vm { id name connection { name } }
      added
      dropped { address rule reason reasonText { code params message } }
      primaryBefore
      primaryAfter
    }
  }
`);

export const ADDRESS_RULES_SETTINGS = graphql(
  `
  query AddressRulesSettings {
    addressRules {
      global { ...AddressRulesFields }
      isShipped
      suggestedInterfacePatterns { pattern isDefault why }
    }
  }
`,
  [AddressRulesFields],
);

/** The global rules, whether they are the shipped ones, and the suggested interface patterns. */
export type AddressRulesSettings = ResultOf<typeof ADDRESS_RULES_SETTINGS>["addressRules"];

export const PREVIEW_ADDRESS_RULES = graphql(
  `
  query PreviewAddressRules($connectionId: ID, $rules: AddressRulesInput) {
    result: previewAddressRules(connectionId: $connectionId, rules: $rules) {
      __typename
      ...ValidationErrorFields
      ... on QueryPreviewAddressRulesSuccess { data { ...AddressRulesPreviewFields } }
    }
  }
`,
  [ValidationErrorFields, AddressRulesPreviewFields],
);

export const SET_GLOBAL_ADDRESS_RULES = graphql(
  `
  mutation SetGlobalAddressRules($rules: AddressRulesInput) {
    result: setGlobalAddressRules(rules: $rules) {
      __typename
      ...ValidationErrorFields
      ... on MutationSetGlobalAddressRulesSuccess { data { isShipped } }
    }
  }
`,
  [ValidationErrorFields],
);

export const CONNECTION_ADDRESS_RULES = graphql(
  `
  query ConnectionAddressRules($id: ID!) {
    connection(id: $id) {
      id
      addressRules { isInherited rules { ...AddressRulesFields } }
    }
    addressRules { suggestedInterfacePatterns { pattern isDefault why } }
  }
`,
  [AddressRulesFields],
);

export const SET_CONNECTION_ADDRESS_RULES = graphql(
  `
  mutation SetConnectionAddressRules($connectionId: ID!, $rules: AddressRulesInput) {
    result: setConnectionAddressRules(connectionId: $connectionId, rules: $rules) {
      __typename
      ...ValidationErrorFields
      ... on MutationSetConnectionAddressRulesSuccess { data { id addressRules { isInherited } } }
    }
  }
`,
  [ValidationErrorFields],
);
