import type { JsonObject, ProofSigner } from '../../../src/vc/ports';

const b64 = (data: string | Uint8Array): string => Buffer.from(data).toString('base64url');

export function partsOf(jwt: string): { header: JsonObject; payload: JsonObject; signature: string } {
  const [h = '', p = '', signature = ''] = jwt.split('.');
  return { header: JSON.parse(Buffer.from(h, 'base64url').toString('utf8')), payload: JSON.parse(Buffer.from(p, 'base64url').toString('utf8')), signature };
}

/** A JWS with exactly the given header and payload and a signature made elsewhere (or none). */
export function assemble(header: JsonObject, payload: JsonObject, signature: string): string {
  return `${b64(JSON.stringify(header))}.${b64(JSON.stringify(payload))}.${signature}`;
}

/** Signs exactly `header` and `payload` (any alg written in the header) with the signer's key. */
export async function signAs(header: JsonObject, payload: JsonObject, signer: ProofSigner): Promise<string> {
  const input = `${b64(JSON.stringify(header))}.${b64(JSON.stringify(payload))}`;
  return `${input}.${b64(await signer.sign(new TextEncoder().encode(input)))}`;
}

/** The original signature over a changed header or payload: what an attacker editing a token produces. */
export function reuseSignature(jwt: string, change: (parts: { header: JsonObject; payload: JsonObject }) => void): string {
  const parts = partsOf(jwt);
  change(parts);
  return assemble(parts.header, parts.payload, parts.signature);
}
