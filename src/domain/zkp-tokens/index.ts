/**
 * Age-threshold tokens (spec §2.12, §4.2 POST /verifyZkpToken): signed predicate attestations,
 * not cryptographic zero-knowledge proofs (see zkp-token.ts). Pure.
 */
export { calculateAge, utcCalendarDate } from './age';
export {
  MAX_AGE_CONDITION,
  MAX_ZKP_TOKEN_HEX_LENGTH,
  ZKP_TOKEN_CLOCK_SKEW_MS,
  ZKP_TOKEN_TTL_MS,
  ZKP_TOKEN_VERSION,
  type AgeCondition,
  type CreateZkpTokenInput,
  type ZkpClaims,
  type ZkpData,
  type ZkpTokenResult,
  type ZkpTokenVerification,
  createZkpToken,
  evaluateAgeCondition,
  verifyZkpToken,
  zkpTokenTimeProblem,
} from './zkp-token';
