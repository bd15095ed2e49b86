import type { JsonWebKey } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './process';

/** What the wallet process (test/wallets/oid4vp-presenter.mjs) reports. */
export interface WalletOutcome {
  readonly error?: string;
  readonly message?: string;
  readonly resolved?: { client_id: string; response_mode: string; nonce: string; signed: boolean };
  readonly submissions?: { status: number; body: Record<string, any> | null }[];
}

export interface WalletInput {
  readonly authorizationRequest?: string;
  readonly credentials: Record<string, { compact: string } | { issuerSigned: string }>;
  /** mso_mdoc, mode extra-claim: elements disclosed beyond the request. */
  readonly extraElements?: string[];
  readonly holderPrivateJwk: JsonWebKey;
  readonly walletAnchorsPem: string[];
  readonly mode?: 'honest' | 'extra-claim' | 'wrong-aud' | 'tamper-disclosure' | 'broken-kb' | 'unencrypted' | 'replay' | 'forged-request';
  readonly responseUri?: string;
  readonly forgedQuery?: Record<string, unknown>;
}

/** Runs the independent wallet as its own process (never in jest's module system) and parses its one line. */
export function runWallet(input: WalletInput): Promise<WalletOutcome> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-wallet-'));
  const file = path.join(dir, 'input.json');
  writeFileSync(file, JSON.stringify(input));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [path.join(ROOT, 'test', 'wallets', 'oid4vp-presenter.mjs'), file], { cwd: ROOT, timeout: 60_000, env: { PATH: process.env.PATH ?? '' } }, (err, stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true });
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as WalletOutcome);
      } catch {
        reject(new Error(`wallet printed no result (${err?.message ?? ''}): ${stderr}`));
      }
    });
  });
}
