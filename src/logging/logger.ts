import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config';

export type { Logger };

/**
 * Key names whose values must never reach a log line, at any depth we log. pino's redaction
 * is path based, so each sensitive name is listed at the shapes we actually log (top level,
 * one level down, request headers).
 */
const SENSITIVE = [
  'privateKey',
  'privatekey',
  'holderPrivateKey',
  'secret',
  'seed',
  'masterKey',
  'apiKey',
  'userSignature',
  'usersignature',
  'x-api-key',
  'authorization',
];

const REDACT_PATHS = SENSITIVE.flatMap((k) => [
  `["${k}"]`,
  `*["${k}"]`,
  `*.*["${k}"]`,
  `req.headers["${k}"]`,
]);

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'credgate' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}
