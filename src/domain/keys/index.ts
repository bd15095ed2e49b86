export * from './ed25519';
export * from './secp256k1';
export * from './x25519';
export * from './nist';
export * from './es256k';
