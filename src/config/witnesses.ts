import { createHash } from 'node:crypto';
import { ConfigError, intSetting, nonEmpty } from './settings';

/** A witness the log asks for cosignatures: its C2SP verifier key and its submission URL prefix. */
export interface WitnessEndpoint {
  /** `<name>+<key id>+<base64(0x04 || Ed25519 public key)>`. */
  readonly verifierKey: string;
  readonly name: string;
  /** The submission prefix; requests go to `<url>/add-checkpoint`. */
  readonly url: string;
}

export interface WitnessConfig {
  readonly witnesses: readonly WitnessEndpoint[];
  /** How many witness cosignatures a head needs to count as witnessed (k of n); 0 without witnesses. */
  readonly quorum: number;
}

/** Key names of C2SP signed notes: well-formed text, no control characters but newline, no spaces, no '+'. */
const KEY_NAME = /^(?:[^\uD800-\uDFFF\s\u0085+\u0000-\u001F]|[\uD800-\uDBFF][\uDC00-\uDFFF])+$/;

/**
 * The name in a witness verifier key `<name>+<key id>+<base64(0x04 || Ed25519 public key)>`, after
 * checking its shape and that the key ID is SHA-256(name || 0x0A || 0x04 || key)[:4]
 * (c2sp.org/tlog-cosignature). Checked here with node:crypto because configuration imports nothing
 * outside src/config; src/witness/cosignature.ts is the codec the log uses, and
 * test/unit/witness-config.test.ts feeds this check keys made by that codec.
 */
function witnessKeyName(vkey: string): string {
  const [name = '', id = '', ...rest] = vkey.split('+');
  const encoded = rest.join('+');
  const key = Buffer.from(encoded, 'base64');
  // Buffer.from is lenient with base64: only a canonical encoding of 33 bytes is a key.
  if (!KEY_NAME.test(name) || !/^[0-9a-f]{8}$/.test(id) || key.length !== 33 || key[0] !== 0x04 || key.toString('base64') !== encoded) {
    throw new ConfigError('malformed witness key');
  }
  const keyId = createHash('sha256').update(Buffer.concat([Buffer.from(name, 'utf8'), Buffer.of(0x0a), key])).digest().subarray(0, 4);
  if (keyId.toString('hex') !== id) throw new ConfigError('witness key ID does not match the key');
  return name;
}

/**
 * CREDGATE_WITNESSES: `vkey@url` entries separated by commas or whitespace (a vkey never holds
 * '@', ',' or spaces). CREDGATE_WITNESS_QUORUM: 1..n, default n (every witness).
 */
export function parseWitnesses(env: NodeJS.ProcessEnv): WitnessConfig {
  const entries = (nonEmpty(env, 'CREDGATE_WITNESSES') ?? '').split(/[\s,]+/).filter((e) => e !== '');
  const witnesses = entries.map((entry): WitnessEndpoint => {
    const at = entry.indexOf('@');
    const verifierKey = entry.slice(0, at);
    const url = entry.slice(at + 1).replace(/\/+$/, '');
    let name: string;
    try {
      if (at < 0) throw new ConfigError('missing @');
      name = witnessKeyName(verifierKey);
      if (!URL.canParse(url) || !['http:', 'https:'].includes(new URL(url).protocol)) throw new ConfigError('not an http(s) URL');
    } catch (e) {
      if (e instanceof ConfigError) {
        throw new ConfigError('CREDGATE_WITNESSES must list <witness vkey>@<http(s) URL> entries (vkey signature type 0x04)');
      }
      throw e;
    }
    return Object.freeze({ verifierKey, name, url });
  });
  if (new Set(witnesses.map((w) => w.name)).size !== witnesses.length) throw new ConfigError('CREDGATE_WITNESSES names each witness (key name) once');
  if (witnesses.length === 0) {
    if (nonEmpty(env, 'CREDGATE_WITNESS_QUORUM') !== undefined) throw new ConfigError('CREDGATE_WITNESS_QUORUM needs CREDGATE_WITNESSES');
    return Object.freeze({ witnesses: [], quorum: 0 });
  }
  const quorum = intSetting(env, 'CREDGATE_WITNESS_QUORUM', witnesses.length, 1, witnesses.length);
  return Object.freeze({ witnesses: Object.freeze(witnesses), quorum });
}
