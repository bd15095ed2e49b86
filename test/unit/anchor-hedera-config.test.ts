import { inspect } from 'node:util';
import { parseHederaConfig } from '../../src/anchor/hedera/config';
import { ConfigError, parseConfig } from '../../src/config';
import { loadAnchorAdapter } from '../../src/anchor/load-adapter';

const KEY = '302e020100300506032b657004220420' + 'ab'.repeat(32);
const base = {
  CREDGATE_HEDERA_NETWORK: '{"127.0.0.1:50211":"0.0.3"}',
  CREDGATE_HEDERA_MIRROR_URL: 'http://127.0.0.1:5551/api/v1/',
  CREDGATE_HEDERA_OPERATOR_ID: '0.0.1001',
  CREDGATE_HEDERA_OPERATOR_KEY: KEY,
};

const failure = (env: NodeJS.ProcessEnv): string => {
  try {
    parseHederaConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
};

test('unset: no Hedera settings, and the service configuration carries none', () => {
  expect(parseHederaConfig({})).toBeUndefined();
  expect(parseConfig({}).hedera).toBeUndefined();
});

test('a node map with a mirror URL parses; the URL loses /api/v1 and trailing slashes', () => {
  const s = parseHederaConfig({ ...base, CREDGATE_HEDERA_TOPIC_ID: '0.0.4242' })!;
  expect(s.network).toEqual({ '127.0.0.1:50211': '0.0.3' });
  expect(s.mirrorUrl).toBe('http://127.0.0.1:5551');
  expect(s.operatorId).toBe('0.0.1001');
  expect(s.operatorKey.reveal()).toBe(KEY);
  expect(s.topicId).toBe('0.0.4242');
  expect(parseConfig(base).hedera?.operatorId).toBe('0.0.1001');
});

test('named networks default to their public mirror; raw keys need their type', () => {
  const s = parseHederaConfig({ ...base, CREDGATE_HEDERA_NETWORK: 'testnet', CREDGATE_HEDERA_MIRROR_URL: '', CREDGATE_HEDERA_OPERATOR_KEY: `ecdsa:${'cd'.repeat(32)}` })!;
  expect(s.network).toBe('testnet');
  expect(s.mirrorUrl).toBe('https://testnet.mirrornode.hedera.com');
  expect(parseHederaConfig({ ...base, CREDGATE_HEDERA_NETWORK: 'mainnet', CREDGATE_HEDERA_MIRROR_URL: '' })!.mirrorUrl).toBe('https://mainnet-public.mirrornode.hedera.com');
  expect(failure({ ...base, CREDGATE_HEDERA_OPERATOR_KEY: 'cd'.repeat(32) })).toMatch(/CREDGATE_HEDERA_OPERATOR_KEY must be/);
});

test.each([
  [{ CREDGATE_HEDERA_NETWORK: 'previewnet' }, /CREDGATE_HEDERA_NETWORK must be testnet, mainnet or a JSON object/],
  [{ CREDGATE_HEDERA_NETWORK: '{"127.0.0.1":"0.0.3"}' }, /CREDGATE_HEDERA_NETWORK must be/],
  [{ CREDGATE_HEDERA_NETWORK: '{}' }, /CREDGATE_HEDERA_NETWORK must be/],
  [{ CREDGATE_HEDERA_MIRROR_URL: '' }, /CREDGATE_HEDERA_MIRROR_URL is required/],
  [{ CREDGATE_HEDERA_MIRROR_URL: 'ftp://mirror' }, /CREDGATE_HEDERA_MIRROR_URL must be an http\(s\) URL/],
  [{ CREDGATE_HEDERA_OPERATOR_ID: '1001' }, /CREDGATE_HEDERA_OPERATOR_ID must be an entity id/],
  [{ CREDGATE_HEDERA_OPERATOR_ID: '' }, /are required together/],
  [{ CREDGATE_HEDERA_TOPIC_ID: 'topic' }, /CREDGATE_HEDERA_TOPIC_ID must be an entity id/],
])('%j is a one-line ConfigError', (over, message) => {
  expect(failure({ ...base, ...over })).toMatch(message);
  expect(() => parseConfig({ ...base, ...over })).toThrow(ConfigError);
});

test('the operator key never shows in errors, JSON or inspect output', () => {
  const secret = `ed25519:${'5e'.repeat(31)}zz`;
  expect(failure({ ...base, CREDGATE_HEDERA_OPERATOR_KEY: secret })).not.toContain('5e5e');
  const s = parseHederaConfig(base)!;
  for (const shown of [JSON.stringify(s), inspect(s, { depth: 5 }), String(s.operatorKey), `${JSON.stringify(parseConfig(base))}`]) {
    expect(shown).not.toContain('abab');
  }
  expect(JSON.stringify(s)).toContain('[redacted]');
});

test('CREDGATE_HEDERA_PER_DID defaults to true; false and a creation timeout parse; anything else is a clear error', () => {
  expect(parseHederaConfig(base)).toMatchObject({ perDid: true, entityTimeoutMs: 20_000 });
  expect(parseHederaConfig({ ...base, CREDGATE_HEDERA_PER_DID: 'FALSE', CREDGATE_HEDERA_ENTITY_TIMEOUT_MS: '5000' })).toMatchObject({ perDid: false, entityTimeoutMs: 5000 });
  expect(failure({ ...base, CREDGATE_HEDERA_PER_DID: 'yes' })).toMatch(/CREDGATE_HEDERA_PER_DID must be true or false/);
  expect(failure({ ...base, CREDGATE_HEDERA_ENTITY_TIMEOUT_MS: '10' })).toMatch(/CREDGATE_HEDERA_ENTITY_TIMEOUT_MS/);
});

test('single-topic mode needs a topic; per-DID mode does not', async () => {
  await expect(loadAnchorAdapter({ mode: 'hedera' }, parseHederaConfig({ ...base, CREDGATE_HEDERA_PER_DID: 'false' }))).rejects.toThrow(/CREDGATE_HEDERA_TOPIC_ID/);
});
