export * from './cryptograph';
export * from './qr';
export { signCompactEdDsaJws, parseCompactJws, type CompactJwsParts } from './compact-jws';
export { base45DecodeStrict, base45Encode, BASE45_ALPHABET } from './base45-strict';
