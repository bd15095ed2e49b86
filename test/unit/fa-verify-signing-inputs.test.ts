import { canonicalBytes } from '../../src/domain/canonical';
import { framingProblem } from '../../src/domain/credentials/family-a-pinning';
import { FAMILY_A_CONTEXT } from '../../src/domain/credentials/family-a-credential';
import { holderProofBytes, parseChallengeProof, parseNonce } from '../../src/domain/credentials/holder-proof';
import { consentBytes, parseConsentSchemaName } from '../../src/domain/credentials/user-signature';
import { type ZkpStatement, certificateOf, conditionPredicate, equalsPredicate, parseZkpStatement, zkpStatementBytes } from '../../src/domain/credentials/zkp-certificate';
import { expectAppError } from '../support/app-error';

const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

describe('documented signing inputs (a holder or verifier can compute them offline)', () => {
  test('consent: subject bound to issuer DID and schema name (or null)', () => {
    const subject = { id: 'did:credgate:local:abc', age: '30' };
    expect(text(consentBytes(subject, { issuerDid: 'did:x:1', schemaName: null }))).toBe(
      '{"issuerDid":"did:x:1","purpose":"credgate-user-consent/v2","schemaName":null,"subject":{"age":"30","id":"did:credgate:local:abc"}}',
    );
    expect(consentBytes(subject, { issuerDid: 'did:x:1', schemaName: 'Badge' })).not.toEqual(consentBytes(subject, { issuerDid: 'did:x:2', schemaName: 'Badge' }));
    expect(parseConsentSchemaName('Badge:2')).toBe('Badge:2');
    expect(parseConsentSchemaName(undefined)).toBeNull();
    expectAppError(() => parseConsentSchemaName('a b'), 'INVALID_INPUT');
  });

  test('holder proofs: action, credential id and (for verify) the nonce', () => {
    expect(text(holderProofBytes('verify', 'S:1:u', 'n'.repeat(16)))).toBe(`{"action":"verify","credentialId":"S:1:u","nonce":"${'n'.repeat(16)}","purpose":"credgate-holder-proof/v1"}`);
    expect(text(holderProofBytes('revoke', 'S:1:u'))).toBe('{"action":"revoke","credentialId":"S:1:u","purpose":"credgate-holder-proof/v1"}');
    expectAppError(() => holderProofBytes('verify', 'S:1:u'), 'INVALID_INPUT');
    expectAppError(() => parseNonce('short'), 'INVALID_INPUT');
    expectAppError(() => parseNonce('x'.repeat(257)), 'INVALID_INPUT');
    expectAppError(() => parseChallengeProof({ nonce: 'n'.repeat(16), signature: 'ab'.repeat(64), extra: 1 }), 'INVALID_INPUT');
    expect(parseChallengeProof({ nonce: 'n'.repeat(16), signature: 'ab'.repeat(64) }).signature).toHaveLength(64);
  });

  test('ZKP statement: every predicate field, the time and the credential are signed', () => {
    const st: ZkpStatement = {
      credentialId: 'S:1:u',
      issuer: 'did:x:1',
      evaluatedAt: '2026-11-22T00:00:00.000Z',
      predicates: [
        conditionPredicate('age', { type: 'number', minimum: 0 }, true),
        conditionPredicate('birthDate', { type: 'date', value: 18, unit: 'years' }, false),
        equalsPredicate({ attribute: 'name', value: 'Alice', type: 'alphabet' }, true),
      ],
    };
    expect(certificateOf(st)).toEqual({ age: true, birthDate: false, 'name=Alice': true });
    const bytes = zkpStatementBytes(st);
    expect(bytes).toEqual(canonicalBytes({ purpose: 'credgate-zkp-certificate/v2', ...st }));
    const edits: ZkpStatement[] = [
      { ...st, evaluatedAt: '2026-11-23T00:00:00.000Z' },
      { ...st, credentialId: 'S:1:v' },
      { ...st, predicates: [{ ...st.predicates[0]!, minimum: '18' }, ...st.predicates.slice(1)] },
    ];
    for (const e of edits) expect(zkpStatementBytes(e)).not.toEqual(bytes);
    expect(parseZkpStatement(JSON.parse(JSON.stringify(st)))).toEqual(st);
    expect(typeof parseZkpStatement(undefined)).toBe('string');
    expect(typeof parseZkpStatement({ ...st, predicates: [{ ...st.predicates[0], operator: 'gte' }] })).toBe('string');
    expect(typeof parseZkpStatement({ ...st, extra: 1 })).toBe('string');
  });

  test('framing: exactly the issued @context list and proof members', () => {
    const proof = { type: 'Ed25519Signature2018', creator: 'd', created: 'c', proofPurpose: 'assertionMethod', vcVerificationMethod: 'v', jws: 'j' };
    expect(framingProblem({ '@context': [...FAMILY_A_CONTEXT], proof })).toBeUndefined();
    expect(framingProblem({ '@context': [...FAMILY_A_CONTEXT, { x: 'y' }], proof })).toMatch(/@context/);
    expect(framingProblem({ '@context': [...FAMILY_A_CONTEXT].reverse(), proof })).toMatch(/@context/);
    expect(framingProblem({ '@context': [...FAMILY_A_CONTEXT], proof: { ...proof, '@context': 'https://example.com' } })).toMatch(/proof/);
    expect(framingProblem({ '@context': [...FAMILY_A_CONTEXT], proof: { ...proof, proofPurpose: 'authentication' } })).toMatch(/purpose/);
  });
});
