import { ConfigError, parseConfig } from '../../src/config';
import { publicKeyOf } from '../../src/domain/merkle';
import { formatWitnessVerifierKey } from '../../src/witness/cosignature';

const vkey = (name: string, b: number): string => formatWitnessVerifierKey({ name, publicKey: publicKeyOf(new Uint8Array(32).fill(b)) });
const W1 = vkey('witness.example/w1', 1);
const W2 = vkey('witness.example/w2', 2);

describe('CREDGATE_WITNESSES and CREDGATE_WITNESS_QUORUM', () => {
  test('unset: no witnesses, quorum 0', () => {
    expect(parseConfig({}).witness).toEqual({ witnesses: [], quorum: 0 });
  });

  test('vkey@url entries, comma- or space-separated; the quorum defaults to every witness', () => {
    const c = parseConfig({ CREDGATE_WITNESSES: `${W1}@https://w1.example/ ,\n ${W2}@http://10.0.0.2:8080/witness` });
    expect(c.witness).toEqual({
      witnesses: [
        { verifierKey: W1, name: 'witness.example/w1', url: 'https://w1.example' },
        { verifierKey: W2, name: 'witness.example/w2', url: 'http://10.0.0.2:8080/witness' },
      ],
      quorum: 2,
    });
    expect(parseConfig({ CREDGATE_WITNESSES: `${W1}@https://a ${W2}@https://b`, CREDGATE_WITNESS_QUORUM: '1' }).witness?.quorum).toBe(1);
  });

  test.each([
    ['no @', { CREDGATE_WITNESSES: W1 }],
    ['a log (0x01) key instead of a witness key', { CREDGATE_WITNESSES: `credgate.test/ledger+00000000+AQ${'A'.repeat(42)}=@https://a` }],
    ['a wrong key id', { CREDGATE_WITNESSES: `${W1.replace(/\+[0-9a-f]{8}\+/, '+00000000+')}@https://a` }],
    ['not an http(s) URL', { CREDGATE_WITNESSES: `${W1}@ftp://a` }],
    ['not a URL', { CREDGATE_WITNESSES: `${W1}@nowhere` }],
    ['the same witness twice', { CREDGATE_WITNESSES: `${W1}@https://a,${W1}@https://b` }],
    ['a quorum above n', { CREDGATE_WITNESSES: `${W1}@https://a`, CREDGATE_WITNESS_QUORUM: '2' }],
    ['a quorum of 0', { CREDGATE_WITNESSES: `${W1}@https://a`, CREDGATE_WITNESS_QUORUM: '0' }],
    ['a quorum without witnesses', { CREDGATE_WITNESS_QUORUM: '1' }],
  ])('%s stops start-up with a ConfigError naming the variable', (_what, env) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(/CREDGATE_WITNESS/);
  });
});
