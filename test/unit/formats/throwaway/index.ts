import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalBytes } from '../../../../src/domain/canonical';
import type { CredentialFormat } from '../../../../src/formats';
import type { JsonObject } from '../../../../src/vc/ports';

/**
 * A throwaway format that exists only in this test folder: a W3C credential with an HMAC-SHA-256
 * proof over the JCS form of everything but the proof. It shows that a new format is this folder
 * plus one registration line: the VC-API verifies it without a change.
 */
export const THROWAWAY_PROOF = 'TestHmacProof2026';

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
const macOf = (key: Buffer, document: JsonObject): string => createHmac('sha256', key).update(canonicalBytes(document)).digest('base64url');

export function throwawayFormat(key: Buffer): CredentialFormat<{ credential: JsonObject }, JsonObject> {
  return {
    id: 'test:hmac',
    title: 'Throwaway HMAC format (test only)',
    detect: (input) => isObject(input) && isObject(input['proof']) && input['proof']['type'] === THROWAWAY_PROOF,
    read: (input) => (isObject(input) ? input : undefined),
    async issue({ credential }) {
      return { ...credential, proof: { type: THROWAWAY_PROOF, mac: macOf(key, credential) } };
    },
    async verify(input) {
      if (!isObject(input) || !isObject(input['proof'])) return { verified: false, issuerBound: false, problems: [{ type: 'MALFORMED_PROOF', title: 'no proof' }] };
      const { proof, ...rest } = input;
      const given = Buffer.from(String((proof as JsonObject)['mac']));
      const expected = Buffer.from(macOf(key, rest));
      const ok = given.length === expected.length && timingSafeEqual(given, expected);
      // The key is the issuer's by construction in this toy: the binding is the MAC itself.
      return { verified: ok, issuerBound: true, credential: input, problems: ok ? [] : [{ type: 'PROOF_VERIFICATION_ERROR', title: 'The MAC does not match' }] };
    },
  };
}
