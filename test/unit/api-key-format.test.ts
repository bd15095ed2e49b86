import { apiKeyHashMatches, hashApiKey, newApiKey, parseApiKey } from '../../src/domain/tenancy/api-key-format';
import { hasAnyScope } from '../../src/domain/tenancy/actor';
import { parseScopes } from '../../src/services/auth.service';

describe('API key format', () => {
  test('a new key parses back to its id and only its hash matches', () => {
    const { id, text } = newApiKey();
    expect(text).toMatch(/^cgk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    expect(parseApiKey(text)).toEqual({ id, text });
    const h = hashApiKey(text);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(apiKeyHashMatches(text, h)).toBe(true);
    expect(apiKeyHashMatches(text.slice(0, -1) + (text.endsWith('A') ? 'B' : 'A'), h)).toBe(false);
  });

  test('malformed texts do not parse', () => {
    for (const t of ['', 'cgk_', 'cgk_zz_yy', newApiKey().text + 'x', newApiKey().text.replace('cgk_', 'cgx_')]) {
      expect(parseApiKey(t)).toBeUndefined();
    }
  });

  test('scopes: admin implies all; unknown scopes are refused', () => {
    const actor = (scopes: ('admin' | 'issuer' | 'holder' | 'verifier')[]) => ({ tenantId: 't', tenantSlug: 's', apiKeyId: 'k', scopes });
    expect(hasAnyScope(actor(['admin']), ['issuer'])).toBe(true);
    expect(hasAnyScope(actor(['verifier']), ['issuer', 'holder'])).toBe(false);
    expect(hasAnyScope(actor(['verifier']), [])).toBe(true);
    expect(parseScopes(['issuer', ' verifier ', 'issuer'])).toEqual(['issuer', 'verifier']);
    expect(() => parseScopes(['root'])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => parseScopes([''])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
