import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { JsonObject } from '../../../src/vc/ports';

const SCRIPT = join(__dirname, '..', '..', 'interop', 'digitalbazaar.mjs');

/**
 * One request to Digital Bazaar's implementation (test/interop/digitalbazaar.mjs), run in a child
 * Node process because its packages are ESM-only and must not go through jest's module system.
 */
export function askDigitalBazaar<T>(request: JsonObject): Promise<T> {
  return askScript<T>(SCRIPT, request);
}

/** One JSON request to a child Node script that answers one JSON object (`failure` when it failed). */
export function askScript<T>(script: string, request: JsonObject): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => {
      let answer: (T & { failure?: string }) | undefined;
      try {
        answer = JSON.parse(out) as T & { failure?: string };
      } catch {
        answer = undefined;
      }
      if (code !== 0 || !answer || answer.failure) reject(new Error(`${script} failed (${code}): ${answer?.failure ?? err.slice(0, 2000)}`));
      else resolve(answer);
    });
    child.stdin.end(JSON.stringify(request));
  });
}

export const dbSign = (request: { suite: string; keyType: string; credential: JsonObject }): Promise<{ did: string; verifiableCredential: JsonObject }> =>
  askDigitalBazaar({ op: 'sign', ...request });

export const dbVerify = (verifiableCredential: JsonObject): Promise<{ verified: boolean; errors: string[] }> =>
  askDigitalBazaar({ op: 'verify', verifiableCredential });

/**
 * Digital Bazaar verifies a credential including its BitstringStatusListEntry: the list credential
 * is fetched over HTTP from URLs under `fetchPrefixes` (a running service), verified, issuer-matched.
 */
export const dbVerifyWithStatus = (
  verifiableCredential: JsonObject,
  fetchPrefixes: readonly string[],
): Promise<{ verified: boolean; errors: string[]; status: { purpose: string; status: boolean }[] }> =>
  askDigitalBazaar({ op: 'verify', verifiableCredential, fetchPrefixes: [...fetchPrefixes], checkStatus: true });
