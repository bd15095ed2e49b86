/** Package entry: the composition root and configuration for embedding Credgate. */
export { createApp, type CredgateApp, type AppOptions } from './app';
export { parseConfig, type Config } from './config';
export { createLogger } from './logging/logger';
