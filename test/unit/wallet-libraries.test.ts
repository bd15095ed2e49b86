import { Openid4vciIssuer } from '@openid4vc/openid4vci';
import { Openid4vpVerifier } from '@openid4vc/openid4vp';
import { DcqlQuery } from 'dcql';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { StatusList } from '@sd-jwt/jwt-status-list';
import { Issuer as MdocIssuer } from '@owf/mdoc';

/** The wallet-protocol libraries are ESM-only: jest's transform must take them (jest.config.js). */
describe('wallet protocol libraries load under jest', () => {
  test('each exports the classes the service builds on', () => {
    for (const c of [Openid4vciIssuer, Openid4vpVerifier, SDJwtVcInstance, StatusList, MdocIssuer]) expect(typeof c).toBe('function');
    expect(typeof DcqlQuery.parse).toBe('function');
  });
});
