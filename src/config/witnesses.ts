import { isAppError } from '../errors';
import { parseWitnessVerifierKey } from '../witness/cosignature';
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
      name = parseWitnessVerifierKey(verifierKey).name;
      if (!URL.canParse(url) || !['http:', 'https:'].includes(new URL(url).protocol)) throw new ConfigError('not an http(s) URL');
    } catch (e) {
      if (isAppError(e) || e instanceof ConfigError) {
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
