import { spawn } from 'node:child_process';
import path from 'node:path';

type Json = Record<string, any>;

const SDK = path.resolve(__dirname, '../../packages/sdk/dist/index.js');
const HOLDER = `
const sdk = require(process.argv[1]);
let input = '';
process.stdin.setEncoding('utf8').on('data', (c) => (input += c)).on('end', async () => {
  const r = JSON.parse(input);
  const answer = r.op === 'derive' ? await sdk.deriveBbs2023(r.credential, r.pointers) : await sdk.verifyBbs2023(r.credential);
  process.stdout.write(JSON.stringify(answer));
});`;

/**
 * One call of the SDK package's local bbs-2023 helper (packages/sdk/dist) in a Node process of its
 * own: no service, no database, nothing but the credential, as a non-custodial holder runs it.
 * `{ op: 'derive', credential, pointers }` or `{ op: 'verify', credential }`.
 */
export function localSdk<T>(request: Json): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', HOLDER, SDK], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`local SDK failed (${code}): ${err.slice(0, 2000)}`))));
    child.stdin.end(JSON.stringify(request));
  });
}

/** The data of a successful transport outcome; a refusal fails the test with its status and code. */
export function ok<T>(o: { ok: true; data: T } | { ok: false; status: number; code?: string }): T {
  if (!o.ok) throw new Error(`expected success, got ${o.status} ${o.code}`);
  return o.data;
}
