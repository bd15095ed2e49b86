import { ES256, digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { issueSdJwtVc, presentSdJwtVc, verifySdJwtVc } from '../../src/formats/sd-jwt-vc';
import { testSigner, trustSigners } from '../support/es256-test-signer';

/**
 * SD-JWT VC interop with the OpenWallet Foundation's sd-jwt-js (@sd-jwt/sd-jwt-vc with its own
 * @sd-jwt/crypto-nodejs WebCrypto signer/verifier/hasher): its verifier, not ours, checks what we
 * issue and present; and we verify what it issues. Only the library's default code path is used
 * on its side (no callback of ours).
 */
const AUD = 'https://verifier.example';
const NONCE = 'interop-nonce';

describe('sd-jwt-js verifies what Credgate issues and presents', () => {
  it('signature, disclosures, key binding (aud, nonce, sd_hash) and typ dc+sd-jwt', async () => {
    const issuer = testSigner({ kid: 'did:example:issuer#1' });
    const holder = testSigner();
    const credential = await issueSdJwtVc({
      signer: issuer,
      iss: 'did:example:issuer',
      vct: 'https://issuer.example/vct/employee',
      claims: { given_name: 'Ada', family_name: 'Lovelace', employer: { name: 'Analytical Engines', site: 'London' } },
      disclosable: ['given_name', 'family_name', 'employer', 'employer.site'],
      holderJwk: holder.publicJwk,
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const presented = await presentSdJwtVc(credential, { disclose: ['given_name', 'employer.site'], holder, aud: AUD, nonce: NONCE });

    const theirs = new SDJwtVcInstance({
      hasher: digest,
      verifier: await ES256.getVerifier(issuer.publicJwk),
      kbVerifier: async (data, sig, payload) => (await ES256.getVerifier((payload['cnf'] as { jwk: object }).jwk))(data, sig),
    });
    const result = await theirs.verify(presented, { keyBindingNonce: NONCE });
    expect(result.header).toMatchObject({ typ: 'dc+sd-jwt', alg: 'ES256' });
    expect(result.kb?.payload).toMatchObject({ aud: AUD, nonce: NONCE });
    expect(result.payload).toMatchObject({ iss: 'did:example:issuer', given_name: 'Ada', employer: { name: 'Analytical Engines', site: 'London' } });
    expect(result.payload['family_name']).toBeUndefined();

    // The same library refuses it under another issuer key: its verifier really checked ours.
    const wrongKey = new SDJwtVcInstance({ hasher: digest, verifier: await ES256.getVerifier(testSigner().publicJwk) });
    await expect(wrongKey.verify(credential)).rejects.toThrow();
  });
});

describe('Credgate verifies what sd-jwt-js issues', () => {
  it('a credential issued by the library with its own signer and salts', async () => {
    const { publicKey, privateKey } = await ES256.generateKeyPair();
    const theirs = new SDJwtVcInstance({ hasher: digest, hashAlg: 'sha-256', saltGenerator: generateSalt, signer: await ES256.getSigner(privateKey), signAlg: 'ES256' });
    const now = Math.floor(Date.now() / 1000);
    const compact = await theirs.issue(
      { iss: 'did:example:lib', vct: 'https://issuer.example/vct/x', iat: now, given_name: 'Grace', family_name: 'Hopper' },
      { _sd: ['given_name', 'family_name'], _sd_decoy: 2 },
      { header: { kid: 'did:example:lib#1' } },
    );
    const libSigner = { ...testSigner({ kid: 'did:example:lib#1' }), publicJwk: publicKey as import('node:crypto').JsonWebKey };
    const r = await verifySdJwtVc(compact, { trust: trustSigners(libSigner), now });
    expect(r.problems).toEqual([]);
    expect(r.claims).toMatchObject({ given_name: 'Grace', family_name: 'Hopper' });
  });
});
