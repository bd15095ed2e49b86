import { formats } from '../../../src/formats/registry';
import { FormatRegistry } from '../../../src/formats/format-registry';
import type { AnyCredentialFormat } from '../../../src/formats/format';
import { oid4vciFormatsFrom } from '../../../src/oid4vc/issuer/registry-formats';

/**
 * The OpenID4VC issuer and verifier find formats in the registry (habit 13): these lookups are
 * all they use, so a format becomes offerable or presentable by registering it, nothing else.
 */
const unusedPorts = {
  signerFor: () => Promise.reject(new Error('not used')),
  allocateStatus: () => Promise.reject(new Error('not used')),
  now: () => new Date(0),
  w3c: { issuerDid: () => Promise.reject(new Error('not used')), issue: () => Promise.reject(new Error('not used')) },
};

describe('OpenID4VC lookups in the format registry', () => {
  it('finds the presented format by its DCQL identifier, older aliases included', () => {
    expect(formats.forDcqlFormat('dc+sd-jwt')?.id).toBe('dc+sd-jwt');
    expect(formats.forDcqlFormat('vc+sd-jwt')?.id).toBe('dc+sd-jwt');
    expect(formats.forDcqlFormat('mso_mdoc')?.id).toBe('mso_mdoc');
    expect(formats.forDcqlFormat('ldp_vp')).toBeUndefined();
    expect(formats.oid4vpFormats().map((f) => f.id)).toEqual(['dc+sd-jwt', 'mso_mdoc']);
  });

  it('offers one issuer format per OpenID4VCI identifier that has an oid4vci member', () => {
    const offered = oid4vciFormatsFrom(formats, unusedPorts).map((f) => f.format);
    expect([...offered].sort()).toEqual(['dc+sd-jwt', 'jwt_vc_json', 'ldp_vc', 'mso_mdoc']);
    expect(new Set(offered).size).toBe(offered.length);
  });

  it('offers and presents a newly registered format without any change to the OpenID4VC code', async () => {
    const throwaway: AnyCredentialFormat = {
      id: 'test:throwaway',
      title: 'throwaway',
      oid4vciFormat: 'jwt_vc_json',
      detect: () => false,
      issue: () => Promise.reject(new Error('not used')),
      verify: () => Promise.reject(new Error('not used')),
      oid4vci: { describe: () => ({ marker: 'throwaway' }), issue: async () => ({ credential: 'minted', ref: {} }) },
      oid4vp: { dcqlFormats: ['x-throwaway'], vpFormatsSupported: {}, verifyPresentation: async () => ({ malformed: 'always' }) },
    };
    const registry = new FormatRegistry([throwaway]);
    const [offered] = oid4vciFormatsFrom(registry, unusedPorts);
    expect(offered?.format).toBe('jwt_vc_json');
    expect(offered?.describe({ kind: 'schema', name: 'n', version: 1, attributes: [] }, { issuer: 'https://i', configurationId: 'c' })).toEqual({ marker: 'throwaway' });
    expect(registry.forDcqlFormat('x-throwaway')?.id).toBe('test:throwaway');
  });
});
