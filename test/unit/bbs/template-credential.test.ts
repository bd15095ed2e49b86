import { bbsStatusListId, templateBbsSeed, templateCredential, templateMandatoryPointers, templateType } from '../../../src/formats/bbs-2023/template-credential';

/** The pure parts of a Family B bbs-2023 template credential (issue 18): key seed, shape, what is always disclosed. */
describe('bbs-2023 template credentials', () => {
  const sk = new Uint8Array(32).fill(3);

  test('the BBS key seed is bound to the DID and to the sealed key', () => {
    const a = templateBbsSeed(sk, 'did:credgate:local:a');
    expect(a).toHaveLength(32);
    expect(templateBbsSeed(sk, 'did:credgate:local:a')).toEqual(a);
    expect(templateBbsSeed(sk, 'did:credgate:local:b')).not.toEqual(a);
    expect(templateBbsSeed(new Uint8Array(32).fill(4), 'did:credgate:local:a')).not.toEqual(a);
    expect(Buffer.from(a).toString('hex')).not.toContain(Buffer.from(sk).toString('hex'));
  });

  test('a template name becomes an IRI-safe type; the issuer, type, validity and status are mandatory, the id and every claim are not', () => {
    expect(templateType('Staff card 2')).toBe('Staff%20card%202');
    const vc = templateCredential({
      id: 'urn:uuid:1',
      templateName: 'Staff card',
      issuer: 'did:key:zUC7x',
      holder: 'did:credgate:local:h',
      validFrom: '2026-01-01T00:00:00Z',
      validUntil: '2027-01-01T00:00:00Z',
      values: { name: 'Ada' },
      credentialStatus: { type: 'BitstringStatusListEntry' },
    });
    expect(vc['type']).toEqual(['VerifiableCredential', 'Staff%20card']);
    expect(vc['credentialSubject']).toEqual({ id: 'did:credgate:local:h', name: 'Ada' });
    const pointers = templateMandatoryPointers(vc);
    expect(pointers.sort()).toEqual(['/credentialStatus', '/issuer', '/type', '/validFrom', '/validUntil']);
    const noHolder = templateCredential({ id: 'urn:uuid:2', templateName: 'T', issuer: 'did:key:zUC7x', holder: null, validFrom: 'a', validUntil: 'b', values: {}, credentialStatus: {} });
    expect(noHolder['credentialSubject']).toEqual({});
  });

  test('the bbs-2023 status list URL names exactly one list of this service', () => {
    const base = 'https://issuer.example/status/';
    const id = '1b4e28ba-2fa1-41d2-883f-0016d3cca427';
    expect(bbsStatusListId(`${base}${id}/bbs-2023`, base)).toBe(id);
    expect(bbsStatusListId(`${base}${id}`, base)).toBeUndefined();
    expect(bbsStatusListId(`https://evil.example/status/${id}/bbs-2023`, base)).toBeUndefined();
    expect(bbsStatusListId(`${base}../${id}/bbs-2023`, base)).toBeUndefined();
    expect(bbsStatusListId(`${base}${id}/x/bbs-2023`, base)).toBeUndefined();
  });
});
