// Declared with the configuration that reads CREDGATE_GRAPHQL_MAX_* (configuration imports nothing above it).
export { DEFAULT_GRAPHQL_LIMITS, type GraphqlLimits } from '../../config/graphql-limits';
