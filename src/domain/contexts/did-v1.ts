/**
 * Pinned JSON-LD context `https://www.w3.org/ns/did/v1`.
 *
 * Source: W3C DID Core v1.0 context as shipped in digitalbazaar/did-context@c0edf82
 * (contexts/did-v1.jsonld). Not in the local vector set, so transcribed from that file.
 * Never edit by hand: a signature made under one text of a context only verifies under the same text.
 */
export const DID_V1_CONTEXT = {
  '@context': {
    '@protected': true,
    id: '@id',
    type: '@type',
    alsoKnownAs: {
      '@id': 'https://www.w3.org/ns/activitystreams#alsoKnownAs',
      '@type': '@id'
    },
    assertionMethod: {
      '@id': 'https://w3id.org/security#assertionMethod',
      '@type': '@id',
      '@container': '@set'
    },
    authentication: {
      '@id': 'https://w3id.org/security#authenticationMethod',
      '@type': '@id',
      '@container': '@set'
    },
    capabilityDelegation: {
      '@id': 'https://w3id.org/security#capabilityDelegationMethod',
      '@type': '@id',
      '@container': '@set'
    },
    capabilityInvocation: {
      '@id': 'https://w3id.org/security#capabilityInvocationMethod',
      '@type': '@id',
      '@container': '@set'
    },
    controller: {
      '@id': 'https://w3id.org/security#controller',
      '@type': '@id'
    },
    keyAgreement: {
      '@id': 'https://w3id.org/security#keyAgreementMethod',
      '@type': '@id',
      '@container': '@set'
    },
    service: {
      '@id': 'https://www.w3.org/ns/did#service',
      '@type': '@id',
      '@context': {
        '@protected': true,
        id: '@id',
        type: '@type',
        serviceEndpoint: {
          '@id': 'https://www.w3.org/ns/did#serviceEndpoint',
          '@type': '@id'
        }
      }
    },
    verificationMethod: {
      '@id': 'https://w3id.org/security#verificationMethod',
      '@type': '@id'
    }
  }
} as const;
