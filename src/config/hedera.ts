/**
 * Names of the Hedera anchor's variables. They are parsed by src/anchor/hedera/config.ts (which
 * never loads @hashgraph/sdk); they are listed here so the configuration code names every variable
 * the service reads.
 */
export const HEDERA_ENV = Object.freeze({
  network: 'CREDGATE_HEDERA_NETWORK',
  mirrorUrl: 'CREDGATE_HEDERA_MIRROR_URL',
  operatorId: 'CREDGATE_HEDERA_OPERATOR_ID',
  operatorKey: 'CREDGATE_HEDERA_OPERATOR_KEY',
  topicId: 'CREDGATE_HEDERA_TOPIC_ID',
  perDid: 'CREDGATE_HEDERA_PER_DID',
  entityTimeoutMs: 'CREDGATE_HEDERA_ENTITY_TIMEOUT_MS',
} as const);
