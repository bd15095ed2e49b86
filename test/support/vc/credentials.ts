import type { JsonObject } from '../../../src/vc/ports';

export const V1 = 'https://www.w3.org/2018/credentials/v1';
export const V2 = 'https://www.w3.org/ns/credentials/v2';

/** An unsigned credential of `version` about `subject`, issuer left for prepareCredentialForIssuance. */
export function unsignedCredential(version: '1.1' | '2.0', subject = 'did:example:holder-1', extra: JsonObject = {}): JsonObject {
  return {
    '@context': [version === '1.1' ? V1 : V2, 'https://www.w3.org/ns/credentials/examples/v2'],
    id: 'urn:uuid:7d3bd7b2-2d7e-4f36-9b6b-2f3f0c1b6a11',
    type: ['VerifiableCredential', 'ExampleDegreeCredential'],
    credentialSubject: { id: subject, degree: { type: 'ExampleBachelorDegree', name: 'Bachelor of Science and Arts' } },
    ...extra,
  };
}
