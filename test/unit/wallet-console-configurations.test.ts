import { offerableConfigurations } from '../../src/services/wallet-console.service';

/**
 * The operator page lists what the issuer metadata advertises: name, format, vct / doctype and the
 * claim paths a DCQL query names; entries that are not configurations are skipped, not guessed.
 */
describe('offerableConfigurations', () => {
  test('dc+sd-jwt and mso_mdoc entries: display name, vct or doctype, claim paths', () => {
    const metadata = {
      credential_issuer: 'https://credgate.example/oid4vc/acme',
      credential_configurations_supported: {
        'template.t1.sd_jwt': { format: 'dc+sd-jwt', vct: 'https://credgate.example/oid4vc/acme/vct/template.t1.sd_jwt', credential_metadata: { display: [{ name: 'Employee', locale: 'en' }], claims: [{ path: ['name'] }, { path: ['email'] }] } },
        'template.t1.mdoc': { format: 'mso_mdoc', doctype: 'org.iso.18013.5.1.mDL', credential_metadata: { display: [{ name: 'Licence' }], claims: [{ path: ['org.iso.18013.5.1', 'family_name'] }] } },
      },
    };
    expect(offerableConfigurations(metadata)).toEqual([
      { id: 'template.t1.sd_jwt', format: 'dc+sd-jwt', name: 'Employee', vct: 'https://credgate.example/oid4vc/acme/vct/template.t1.sd_jwt', doctype: null, claims: [['name'], ['email']] },
      { id: 'template.t1.mdoc', format: 'mso_mdoc', name: 'Licence', vct: null, doctype: 'org.iso.18013.5.1.mDL', claims: [['org.iso.18013.5.1', 'family_name']] },
    ]);
  });

  test('no display name: the id; malformed entries and claim paths are left out', () => {
    const metadata = {
      credential_configurations_supported: {
        bare: { format: 'ldp_vc' },
        noFormat: { vct: 'x' },
        list: ['not', 'an', 'object'],
        odd: { format: 'dc+sd-jwt', vct: 7, credential_metadata: { display: 'x', claims: [{ path: [1, 'a'] }, { path: 'name' }, null, { path: [] }] } },
      },
    };
    expect(offerableConfigurations(metadata)).toEqual([
      { id: 'bare', format: 'ldp_vc', name: 'bare', vct: null, doctype: null, claims: [] },
      { id: 'odd', format: 'dc+sd-jwt', name: 'odd', vct: null, doctype: null, claims: [['a']] },
    ]);
    expect(offerableConfigurations({})).toEqual([]);
    expect(offerableConfigurations({ credential_configurations_supported: [] })).toEqual([]);
  });
});
