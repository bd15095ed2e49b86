import { type JsonWebKey, randomUUID } from 'node:crypto';
import { base64url } from 'jose';
import { didKeyFingerprint } from '../../../src/domain/dids/did-key';
import type { DidDocument } from '../../../src/domain/dids/did-document.types';
import { generateEd25519Keypair, generateSecp256k1Keypair } from '../../../src/domain/keys';
import type { AnyCredentialFormat, VerifyContext } from '../../../src/formats';
import type { JsonObject, SigningKeyType } from '../../../src/vc/ports';
import { mdocNamespacesFromAttributes } from '../../../src/formats/mdoc';
import { createRootCa, derToX5c, generateP256KeyPair, issueLeafCertificate, x509Crypto, x5cTrust } from '../../../src/x509';
import type { Signer } from '../../../src/x509';
import { createTestDidResolver } from '../../support/vc/did-key-resolver';
import { newDidKeyIssuer } from '../../support/vc/jwt-signers';
import { bbs2023Engine, g2DidKey } from '../../../src/formats/bbs-2023';

/**
 * For each registered format: how to issue a fresh credential with a real key, a context that
 * verifies it, and a tampered copy that must not verify. The round-trip test requires one entry
 * per registered format, so a format registered without its fixture fails the suite.
 */
export interface FormatFixture {
  issue(format: AnyCredentialFormat): Promise<{ issued: unknown; context: VerifyContext }>;
  tamper(issued: unknown): unknown;
  /** The problem type the tampered copy must be refused with. */
  readonly tamperedProblem: string;
}

const FA_ISSUER = 'did:example:family-a-issuer';
const FB_ISSUER = 'did:example:family-b-issuer';

const faKeys = generateEd25519Keypair();
const fbKeys = generateSecp256k1Keypair();

function controllerDocument(did: string, fragment: string, publicKeyMultibase: string): DidDocument {
  const id = `${did}#${fragment}`;
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: did,
    verificationMethod: [{ id, type: 'Multikey', controller: did, publicKeyMultibase }],
    assertionMethod: [id],
    authentication: [id],
  };
}

/** Real documents for the seed styles' issuer DIDs (the service's own DID method is not resolvable offline). */
const resolver = createTestDidResolver([
  controllerDocument(FA_ISSUER, 'did-root-key', didKeyFingerprint('Ed25519', faKeys.publicKey)),
  controllerDocument(FB_ISSUER, 'keys-1', didKeyFingerprint('secp256k1', fbKeys.publicKey)),
]);

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Changes one subject claim of a JSON credential, leaving its proof as it was. */
function tamperSubject(issued: unknown): unknown {
  if (!isObject(issued)) throw new Error('expected a JSON credential');
  const copy = structuredClone(issued);
  const subject = copy['credentialSubject'];
  const first = Array.isArray(subject) ? subject[0] : subject;
  if (!isObject(first)) throw new Error('expected a subject');
  first['name'] = 'Mallory';
  return copy;
}

function w3cFixture(keyType: SigningKeyType): FormatFixture {
  return {
    async issue(format) {
      const issuer = newDidKeyIssuer(keyType);
      const credential: JsonObject = {
        '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/examples/v2'],
        id: `urn:uuid:${randomUUID()}`,
        type: ['VerifiableCredential', 'ExampleDegreeCredential'],
        issuer: issuer.did,
        validFrom: '2025-01-01T00:00:00Z',
        credentialSubject: { id: 'did:example:holder-1', name: 'Alice' },
      };
      return { issued: await format.issue({ credential, signer: issuer.signer }), context: { resolver } };
    },
    tamper: tamperSubject,
    tamperedProblem: 'PROOF_VERIFICATION_ERROR',
  };
}

/** A JWT in an EnvelopedVerifiableCredential: re-encode the payload with one claim changed, keep the signature. */
function tamperEnvelopedJwt(issued: unknown): unknown {
  if (!isObject(issued) || typeof issued['id'] !== 'string') throw new Error('expected an envelope');
  const [prefix, jwt] = [issued['id'].slice(0, issued['id'].indexOf(',') + 1), issued['id'].slice(issued['id'].indexOf(',') + 1)];
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload))) as JsonObject;
  (claims['credentialSubject'] as JsonObject)['name'] = 'Mallory';
  return { ...issued, id: `${prefix}${header}.${base64url.encode(JSON.stringify(claims))}.${signature}` };
}

/** Certificates are judged at the real clock by x5cTrust when a format passes no time: valid 2026-2036. */
const VALIDITY = { notBefore: new Date('2026-01-01T00:00:00Z'), notAfter: new Date('2036-01-01T00:00:00Z') };
export const ISSUER_URL = 'https://issuer.credgate.example';

/** A P-256 signer (the shared contract) whose key stays in WebCrypto, certified by a fresh test root. */
export async function certifiedSigner(): Promise<{ signer: Signer; anchor: Uint8Array }> {
  const root = await createRootCa({ subject: { commonName: 'Formats Test Root', country: 'DE' }, ...VALIDITY });
  const keys = await generateP256KeyPair();
  const leaf = await issueLeafCertificate({ issuer: root, subject: { commonName: 'Formats Test Issuer', country: 'DE' }, publicKey: keys.publicKey, uris: [ISSUER_URL], dnsNames: ['issuer.credgate.example'], ...VALIDITY });
  const publicJwk = (await x509Crypto.subtle.exportKey('jwk', keys.publicKey)) as JsonWebKey;
  const signer: Signer = {
    alg: 'ES256',
    publicJwk,
    x5c: [derToX5c(leaf)],
    sign: async (data) => new Uint8Array(await x509Crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, data)),
  };
  return { signer, anchor: root.certificate };
}

async function holderKey(): Promise<JsonWebKey> {
  const keys = await generateP256KeyPair();
  return (await x509Crypto.subtle.exportKey('jwk', keys.publicKey)) as JsonWebKey;
}

/** Rewrites the value of the first disclosure: its digest is then referenced nowhere. */
function tamperDisclosure(issued: unknown): unknown {
  if (typeof issued !== 'string') throw new Error('expected a compact SD-JWT');
  const [jwt, first, ...rest] = issued.split('~') as [string, string, ...string[]];
  const disclosure = JSON.parse(new TextDecoder().decode(base64url.decode(first))) as unknown[];
  disclosure[2] = 'Mallory';
  return [jwt, base64url.encode(JSON.stringify(disclosure)), ...rest].join('~');
}

/** Replaces one element value in place (same length), so the CBOR still parses but its digest no longer matches. */
function tamperElement(issued: unknown): unknown {
  if (typeof issued !== 'string') throw new Error('expected IssuerSigned as base64url');
  const bytes = Buffer.from(issued, 'base64url');
  const at = bytes.indexOf(Buffer.from('Erika'));
  if (at < 0) throw new Error('the element value is not in the CBOR');
  bytes.set(Buffer.from('Erikb'), at);
  return bytes.toString('base64url');
}

export const FIXTURES: Readonly<Record<string, FormatFixture>> = {
  'family-a': {
    async issue(format) {
      const now = new Date('2025-01-01T00:00:00Z');
      const issued = await format.issue({
        seed: faKeys.privateKey,
        credential: {
          id: `Membership:1:${randomUUID()}`,
          schemaName: 'Membership',
          schemaVersion: 1,
          schemaUrl: 'https://credgate.example/schemas/Membership/1',
          issuer: FA_ISSUER,
          subject: { id: 'did:example:holder-1', name: 'Alice' },
          issuanceDate: now,
          expirationDate: new Date('2999-01-01T00:00:00Z'),
          encrypted: false,
          biometrics: { face: null, iris: null, finger: null },
        },
      });
      return { issued, context: { resolver } };
    },
    tamper: tamperSubject,
    tamperedProblem: 'PROOF_VERIFICATION_ERROR',
  },
  'family-b': {
    async issue(format) {
      const issued = await format.issue({
        privateKey: fbKeys.privateKey,
        credential: {
          id: `urn:uuid:${randomUUID()}`,
          templateName: 'Membership',
          issuer: FB_ISSUER,
          holder: 'did:example:holder-1',
          issuanceDate: '2025-01-01T00:00:00Z',
          expirationDate: '2999-01-01T00:00:00Z',
          values: { name: 'Alice', level: 'gold' },
          credentialStatus: { id: 'https://credgate.example/status/1#7', type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: '7', statusListCredential: 'https://credgate.example/status/1' },
          verificationMethod: `${FB_ISSUER}#keys-1`,
          created: '2025-01-01T00:00:00Z',
        },
      });
      return { issued, context: { resolver } };
    },
    tamper: tamperSubject,
    tamperedProblem: 'PROOF_VERIFICATION_ERROR',
  },
  'di:eddsa-rdfc-2022': w3cFixture('Ed25519'),
  'di:eddsa-jcs-2022': w3cFixture('Ed25519'),
  'di:ecdsa-rdfc-2019': w3cFixture('P-256'),
  'ed25519-signature-2020': w3cFixture('Ed25519'),
  'vc+jwt': { ...w3cFixture('P-256'), tamper: tamperEnvelopedJwt, tamperedProblem: 'PROOF_VERIFICATION_ERROR' },
  'dc+sd-jwt': {
    async issue(format) {
      const { signer, anchor } = await certifiedSigner();
      const issued = await format.issue({ signer, iss: ISSUER_URL, vct: `${ISSUER_URL}/types/membership`, claims: { given_name: 'Alice', level: 'gold' }, holderJwk: await holderKey() });
      return { issued, context: { trust: x5cTrust([anchor]) } };
    },
    tamper: tamperDisclosure,
    tamperedProblem: 'unreferenced_disclosure',
  },
  mso_mdoc: {
    async issue(format) {
      const { signer, anchor } = await certifiedSigner();
      const docType = 'eu.europa.ec.eudi.pid.1';
      const issued = await format.issue({
        docType,
        namespaces: mdocNamespacesFromAttributes(docType, { familyName: 'Mustermann', given_name: 'Erika', birthDate: '1964-08-12', birth_place: 'Berlin', nationality: 'DE', expiry_date: '2031-01-01', issuing_authority: 'Bundesdruckerei', issuing_country: 'DE' }),
        signer,
        deviceKeyJwk: await holderKey(),
        validFrom: new Date('2026-01-15T00:00:00Z'),
        validUntil: new Date('2027-01-15T00:00:00Z'),
      });
      return { issued, context: { trust: x5cTrust([anchor]), now: new Date('2026-06-01T12:00:00Z') } };
    },
    tamper: tamperElement,
    tamperedProblem: 'ELEMENT_DIGEST_MISMATCH',
  },
  // A bbs-2023 base proof is the holder's; what verifiers receive (and so what verifies) is a derivation.
  'di:bbs-2023': {
    async issue(format) {
      const key = await bbs2023Engine.generateKeyPair();
      const { did, verificationMethod } = g2DidKey(key.publicKey);
      const credential: JsonObject = {
        '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/examples/v2'],
        id: `urn:uuid:${randomUUID()}`,
        type: ['VerifiableCredential', 'ExampleDegreeCredential'],
        issuer: did,
        validFrom: '2025-01-01T00:00:00Z',
        credentialSubject: { id: 'did:example:holder-1', name: 'Alice', degree: 'BSc' },
      };
      const signer = { keyType: 'Bls12381G2' as const, verificationMethod, sign: () => Promise.reject(new Error('BBS signs message lists')), bbsKey: key };
      const base = await format.issue({ credential, signer });
      return { issued: await format.derive!(base, ['/credentialSubject/name']), context: {} };
    },
    tamper: tamperSubject,
    tamperedProblem: 'PROOF_VERIFICATION_ERROR',
  },
};

export { resolver as fixtureResolver };
