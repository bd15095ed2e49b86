import type { JsonWebKey } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './process';

export interface WalletStep {
  readonly step: string;
  readonly ok: boolean;
  readonly status?: number | null;
  readonly error?: string | null;
  readonly [k: string]: unknown;
}

/** What the wallet process (test/wallets/oid4vci-wallet.mjs) reports. */
export interface WalletOutcome {
  readonly steps: WalletStep[];
  readonly credentials: (string | Record<string, any>)[];
  readonly holderJwks: JsonWebKey[];
  /** With exportHolderKeys: the private keys of holderJwks, for presenting the credentials afterwards. */
  readonly holderPrivateJwks?: JsonWebKey[];
  readonly error?: string;
  readonly message?: string;
}

export interface WalletInput {
  readonly offerUri: string;
  readonly mode?: string;
  readonly txCode?: string | null;
  readonly wrongTxCodes?: (string | null)[];
  readonly configurationId?: string;
  readonly batch?: number;
  readonly notify?: 'credential_accepted' | 'credential_failure' | 'credential_deleted';
  readonly loginHint?: string;
  readonly exportHolderKeys?: boolean;
  /** A wallet provider's attestation key and chain (modes provider-attestation, provider-key-attestation). */
  readonly walletProvider?: { readonly privateJwk: JsonWebKey; readonly x5c: string[] };
}

/**
 * Runs the independent wallet as its own process. A deferred flow stops at {"pending": true}:
 * `whenPending` runs then (the test marks the offer ready) and the wallet is told to go on.
 */
export function runIssuanceWallet(input: WalletInput, whenPending?: () => Promise<void>): Promise<WalletOutcome> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-vci-wallet-'));
  const file = path.join(dir, 'input.json');
  writeFileSync(file, JSON.stringify(input));
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [path.join(ROOT, 'test', 'wallets', 'oid4vci-wallet.mjs'), file], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => proc.kill('SIGKILL'), 90_000);
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('{"pending":true}\n') && whenPending) {
        const go = whenPending;
        whenPending = undefined;
        go().then(
          () => proc.stdin.write('go\n'),
          (e: unknown) => {
            proc.kill('SIGKILL');
            reject(e);
          },
        );
      }
    });
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    proc.on('close', () => {
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as WalletOutcome);
      } catch {
        reject(new Error(`wallet printed no result: ${err}`));
      }
    });
  });
}

/** The step of that name (the last one when it repeats); fails the test when the wallet never got there. */
export function stepOf(out: WalletOutcome, name: string): WalletStep {
  if (out.error) throw new Error(`the wallet failed: ${out.message}`);
  const found = [...out.steps].reverse().find((s) => s.step === name);
  if (!found) throw new Error(`the wallet did not reach ${name}: ${JSON.stringify(out.steps)}`);
  return found;
}

/** Sphereon's client (test/wallets/oid4vci-sphereon.mjs) in its own process: pre-authorized code with tx_code and DPoP. */
export function runSphereonWallet(input: { offerUri: string; txCode: string | null; configurationId: string }): Promise<{ tokenType?: string; credential?: string; holderJwk?: JsonWebKey; error?: string; message?: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-sphereon-'));
  const file = path.join(dir, 'input.json');
  writeFileSync(file, JSON.stringify(input));
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [path.join(ROOT, 'test', 'wallets', 'oid4vci-sphereon.mjs'), file], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => proc.kill('SIGKILL'), 90_000);
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    proc.on('close', () => {
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as never);
      } catch {
        reject(new Error(`sphereon wallet printed no result: ${err}`));
      }
    });
  });
}
