// The Hedera settings are configuration (src/config/hedera.ts); the adapter and its tests name them here.
export { type HederaNetwork, type HederaSettings, PUBLIC_MIRRORS, SecretKey, parseHederaConfig } from '../../config/hedera';
