import { deflateSync } from 'node:zlib';
import { StatusList, getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { AppError } from '../../../src/errors';
import type { IssuerTrust, JsonWebKey } from '../../../src/formats/sd-jwt-vc';
import {
  createTokenStatusChecker,
  decodeLst,
  encodeLst,
  readStatusListToken,
  signStatusListToken,
  statusAt,
  withStatus,
  type BitsPerStatus,
} from '../../../src/formats/token-status-list';
import { RequestBudget, withBudget, DEFAULT_VERIFICATION_LIMITS } from '../../../src/vc/net/request-budget';
import { rejection } from '../../support/app-error';
import { testSigner, trustSigners } from '../../support/es256-test-signer';
import example from '../../fixtures/token-status-list/draft-example.json';

const MAX = 1024 * 1024;
const draftKey = example.signingKey as JsonWebKey;
const trustDraftKey: IssuerTrust = async ({ kid }) => {
  if (kid !== '12') throw new AppError('VERIFICATION_FAILED', 'unknown key');
  return { publicJwk: draftKey, trustedBy: 'x5c' };
};

describe('Token Status List encoding against the draft examples', () => {
  it.each([
    ['encoding1', example.encoding1],
    ['encoding2', example.encoding2],
  ])('%s: the lst inflates to the byte array and the statuses read back (least significant bit first)', (_name, v) => {
    const bits = v.encoded.bits as BitsPerStatus;
    const bytes = decodeLst(v.encoded.lst, MAX);
    expect([...bytes]).toEqual(v.byteArray);
    expect(v.statuses.map((_, i) => statusAt(bytes, bits, i))).toEqual(v.statuses);
    // Our encoding of the same statuses is the draft's lst exactly (zlib, level 9).
    let built: Uint8Array = new Uint8Array(v.byteArray.length);
    v.statuses.forEach((s, i) => (built = withStatus(built, bits, i, s)));
    expect(encodeLst(built)).toBe(v.encoded.lst);
  });

  it('statusAt is undefined past the end; withStatus refuses out of range values', () => {
    const bytes = new Uint8Array(2);
    expect(statusAt(bytes, 1, 16)).toBeUndefined();
    expect(statusAt(bytes, 1, -1)).toBeUndefined();
    expect(() => withStatus(bytes, 1, 3, 2)).toThrow(RangeError);
  });

  it('an lst that inflates past the bound (a zlib bomb) is INVALID_INPUT, not a memory spike', () => {
    const bomb = deflateSync(Buffer.alloc(4 * MAX)).toString('base64url');
    expect(bomb.length).toBeLessThan(10_000);
    expect(() => decodeLst(bomb, MAX)).toThrow(AppError);
    expect(() => decodeLst('not*base64', MAX)).toThrow(AppError);
    expect(() => decodeLst('AAAA', MAX)).toThrow(AppError);
  });
});

describe('Status List Token', () => {
  it('the draft example token validates with the draft key and shows the example statuses', async () => {
    const contents = await readStatusListToken(example.statusListToken, { trust: trustDraftKey, uri: 'https://example.com/statuslists/1', now: 1686920170 + 10, maxBytes: MAX });
    expect(contents).toMatchObject({ bits: 1, iat: 1686920170, exp: 2291720170, ttl: 43200 });
    expect(example.encoding1.statuses.map((_, i) => statusAt(contents.bytes, contents.bits, i))).toEqual(example.encoding1.statuses);
  });

  it('is refused for another sub, after exp, under an untrusted key, or with a changed payload', async () => {
    const read = (jwt: string, over: { uri?: string; now?: number; trust?: IssuerTrust } = {}) =>
      rejection(readStatusListToken(jwt, { trust: over.trust ?? trustDraftKey, uri: over.uri ?? 'https://example.com/statuslists/1', now: over.now ?? 1686920170, maxBytes: MAX }));
    expect((await read(example.statusListToken, { uri: 'https://example.com/statuslists/2' })).code).toBe('VERIFICATION_FAILED');
    expect((await read(example.statusListToken, { now: 2291720170 + 61 })).code).toBe('VERIFICATION_FAILED');
    expect((await read(example.statusListToken, { trust: trustSigners(testSigner({ kid: '12' })) })).code).toBe('VERIFICATION_FAILED');
    const [h, p, s] = example.statusListToken.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    payload.status_list.lst = encodeLst(new Uint8Array(2));
    expect((await read(`${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`)).message).toMatch(/signature/);
  });

  it('what we sign is the draft shape, and sd-jwt-js reads the same statuses from it', async () => {
    const signer = testSigner({ kid: 'list-key' });
    let bytes: Uint8Array = new Uint8Array(16);
    for (const i of [0, 5, 77, 127]) bytes = withStatus(bytes, 1, i, 1);
    const jwt = await signStatusListToken({ signer, sub: 'https://issuer.example/token-status-lists/abc', bits: 1, bytes, iat: 1_800_000_000, exp: 1_800_086_400, ttl: 300 });
    const [h, p] = jwt.split('.').slice(0, 2).map((x) => JSON.parse(Buffer.from(x, 'base64url').toString()) as Record<string, unknown>);
    expect(h).toEqual({ typ: 'statuslist+jwt', kid: 'list-key', alg: 'ES256' });
    expect(p).toMatchObject({ sub: 'https://issuer.example/token-status-lists/abc', iat: 1_800_000_000, exp: 1_800_086_400, ttl: 300, status_list: { bits: 1 } });

    const theirs: StatusList = getListFromStatusListJWT(jwt);
    for (let i = 0; i < 128; i++) expect(theirs.getStatus(i)).toBe([0, 5, 77, 127].includes(i) ? 1 : 0);
    const ours = await readStatusListToken(jwt, { trust: trustSigners(signer), uri: 'https://issuer.example/token-status-lists/abc', now: 1_800_000_100, maxBytes: MAX });
    expect(statusAt(ours.bytes, 1, 77)).toBe(1);
    expect(statusAt(ours.bytes, 1, 78)).toBe(0);
  });

  it('the checker reads own lists locally and validates other issuers\' tokens', async () => {
    const signer = testSigner({ kid: 'remote-key' });
    const bytes = withStatus(new Uint8Array(8), 1, 9, 1);
    const uri = 'https://other.example/lists/1';
    const token = await signStatusListToken({ signer, sub: uri, bits: 1, bytes, iat: 1_800_000_000 });
    const fetched: string[] = [];
    const check = createTokenStatusChecker({
      own: { statusOf: async (u, idx) => (u.startsWith('https://me.example/') ? (idx < 8 ? 0 : undefined) : null) },
      remote: { fetchToken: async (u) => (fetched.push(u), token) },
      trust: trustSigners(signer),
      now: () => 1_800_000_010,
    });
    expect(await check({ uri, idx: 9 })).toBe(1);
    expect(await check({ uri, idx: 10 })).toBe(0);
    expect(await check({ uri: 'https://me.example/l', idx: 3 })).toBe(0);
    expect(fetched).toEqual([uri, uri]);
    expect((await rejection(check({ uri, idx: 64 }))).code).toBe('INVALID_INPUT');
    expect((await rejection(check({ uri: 'https://me.example/l', idx: 9 }))).code).toBe('INVALID_INPUT');
    const wrongSigner = createTokenStatusChecker({ remote: { fetchToken: async () => token }, trust: trustSigners(testSigner({ kid: 'remote-key' })), now: () => 1_800_000_010 });
    expect((await rejection(wrongSigner({ uri, idx: 9 }))).code).toBe('VERIFICATION_FAILED');
  });

  it('each check is charged to the request budget: past its distinct-lists bound, nothing more is fetched', async () => {
    const signer = testSigner({ kid: 'k' });
    const fetched: string[] = [];
    const check = createTokenStatusChecker({
      remote: { fetchToken: async (u) => (fetched.push(u), signStatusListToken({ signer, sub: u, bits: 1, bytes: new Uint8Array(8), iat: 1_800_000_000 })) },
      trust: trustSigners(signer),
      now: () => 1_800_000_010,
    });
    const budget = new RequestBudget({ ...DEFAULT_VERIFICATION_LIMITS, maxStatusLists: 2 });
    const uris = ['https://a.example/1', 'https://a.example/2', 'https://a.example/3'];
    const outcomes = await withBudget(budget, () => Promise.all(uris.map((uri) => check({ uri, idx: 0 }).then((v) => v, (e: AppError) => e.code))));
    expect(outcomes.filter((o) => o === 'INVALID_INPUT')).toHaveLength(1);
    expect(fetched).toHaveLength(2);
    expect(budget.spent().decodedBytes).toBe(16);
  });
});
