/** The GraphQL resource limits (CREDGATE_GRAPHQL_MAX_*), documented in docs/security/edges.md. */
export interface GraphqlLimits {
  /** Deepest field nesting; a root field is depth 1. */
  readonly maxDepth: number;
  /** Aliased fields per operation (aliases are how one request repeats one operation). */
  readonly maxAliases: number;
  /** Summed field costs (src/graphql/limits/field-costs.ts). */
  readonly maxCost: number;
  /** Parser token cap: bounds parse time and recursion before any other check runs. */
  readonly maxTokens: number;
}

export const DEFAULT_GRAPHQL_LIMITS: GraphqlLimits = Object.freeze({ maxDepth: 20, maxAliases: 30, maxCost: 1000, maxTokens: 10_000 });
