/** Detached secp256k1 signatures over text or canonical JSON (POST /signature/create, /signature/verify). Pure. */
export { dataToSignBytes, signData, verifyData } from './data-signature';
