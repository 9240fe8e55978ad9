// Limits on what a single GraphQL request may ask for. Figures are documented in docs/api.md.
export const REQUEST_LIMITS = {
  /** Request body, bytes. */
  maxBodyBytes: 100 * 1024,
  /** Lexical tokens in one document. */
  maxTokens: 2_000,
  /** Selection depth. */
  maxDepth: 12,
  /** Aliases in one operation. */
  maxAliases: 20,
  /** Estimated cost (objects 2, scalars 1, scaled by depth). */
  maxCost: 10_000,
} as const;
