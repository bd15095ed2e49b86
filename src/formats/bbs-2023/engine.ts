import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AppError, invalidInput } from '../../errors';
// The module itself, not the folder's index: this engine needs the published documents, not jsonld.
import { PUBLISHED_CONTEXTS } from '../../domain/contexts/published-contexts';
import type { JsonObject } from '../../vc/ports';
import { BbsJobFailure, BbsWorkerPool, type BbsPoolOptions } from './bbs-pool';
import { g2DidKey, g2PublicKeyOf } from './did-key';
import type { BbsWorkerData } from './worker-source';

/** A fresh BLS12-381 G2 key pair: 32-byte secret scalar, 96-byte compressed public point. */
export interface BbsKeyPair {
  readonly secretKey: Uint8Array;
  readonly publicKey: Uint8Array;
}

/** The outcome of verifying a derived proof: an answer, not an exception (habit 2). */
export type BbsVerification = { readonly verified: true; readonly verificationMethod: string; readonly controller: string } | { readonly verified: false; readonly reason: string };

/** JSON pointers (RFC 6901) a base proof makes mandatory or a derivation selects. */
const MAX_POINTERS = 256;
const POINTER = /^(\/([^~/]|~[01])*)+$/;

export function checkPointers(pointers: unknown, field: string): string[] {
  if (!Array.isArray(pointers) || pointers.length > MAX_POINTERS || !pointers.every((p) => typeof p === 'string' && p.length <= 512 && POINTER.test(p))) {
    throw invalidInput(`${field} must be a list of at most ${MAX_POINTERS} JSON pointers such as "/credentialSubject/name"`, [{ field, message: 'JSON pointers' }]);
  }
  return [...(pointers as string[])];
}

/** What the worker needs to load: Digital Bazaar's cryptosuite and Multikey by absolute path, and the pinned contexts. */
export function defaultWorkerData(): BbsWorkerData {
  const multikeyEntry = require.resolve('@digitalbazaar/bls12-381-multikey');
  return {
    cryptosuiteEntry: require.resolve('@digitalbazaar/bbs-2023-cryptosuite'),
    multikeyEntry,
    ...optional(() => ({ ciphersuitesEntry: ciphersuitesOf(multikeyEntry) })),
    ...optional(() => ({ curvesEntry: nobleBlsOf(multikeyEntry) })),
    contexts: [...PUBLISHED_CONTEXTS],
  };
}

/** The ciphersuites module of the bbs-signatures copy `multikeyEntry` loads (by file: the package exports only its index). */
function ciphersuitesOf(multikeyEntry: string): string {
  const index = createRequire(multikeyEntry).resolve('@digitalbazaar/bbs-signatures');
  const file = path.join(path.dirname(index), 'bbs', 'ciphersuites.js');
  if (!existsSync(file)) throw new Error('no ciphersuites module');
  return file;
}

/**
 * The ESM bls12-381 module of the @noble/curves copy bbs-signatures imports, found the way Node
 * resolves it (node_modules folders upwards from the package), so the worker adds to the very
 * module instance the library's points belong to.
 */
function nobleBlsOf(multikeyEntry: string): string {
  let dir = path.dirname(createRequire(multikeyEntry).resolve('@digitalbazaar/bbs-signatures'));
  for (;;) {
    const file = path.join(dir, 'node_modules', '@noble', 'curves', 'esm', 'bls12-381.js');
    if (existsSync(file)) return file;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('no @noble/curves');
    dir = up;
  }
}

/** A speed-up that may be missing (another library layout): without it, the same results, slower. */
function optional<T extends object>(make: () => T): T | Record<string, never> {
  try {
    return make();
  } catch {
    return {};
  }
}

export const DEFAULT_BBS_POOL: Omit<BbsPoolOptions, 'workerData'> = { size: 2, deadlineMs: 10_000, queuePerTenant: 16, retryAfterSeconds: 2 };

/**
 * W3C bbs-2023 (Data Integrity BBS Cryptosuites v1.0) over Digital Bazaar's cryptosuite, each
 * operation a job for the BBS worker pool. Derivation draws a fresh presentation header unless the
 * verifier gave one, and BBS ProofGen draws fresh blinding scalars each time, so two derivations of
 * one credential share no proof bytes (unlinkable; only what is disclosed is common).
 */
export class Bbs2023Engine {
  private pool: BbsWorkerPool | undefined;

  constructor(private options: Omit<BbsPoolOptions, 'workerData'> & { workerData?: BbsWorkerData } = DEFAULT_BBS_POOL) {}

  /**
   * The deployment's worker count and deadline (CREDGATE_BBS_WORKERS, CREDGATE_BBS_DEADLINE_MS), set
   * by the composition root. When they change, the running pool, if any, is closed (its jobs answer
   * 503 + Retry-After) and the next job starts one with the new settings.
   */
  /** The workers and deadline in force (what configure() set, or the defaults). */
  get settings(): { readonly workers: number; readonly deadlineMs: number } {
    return { workers: this.options.size, deadlineMs: this.options.deadlineMs };
  }

  async configure(settings: { readonly workers?: number; readonly deadlineMs?: number }): Promise<void> {
    // Several apps in one process (tests, a tenant move) configure it alike: leave a running pool alone then.
    if ((settings.workers ?? this.options.size) === this.options.size && (settings.deadlineMs ?? this.options.deadlineMs) === this.options.deadlineMs) return;
    this.options = { ...this.options, ...(settings.workers !== undefined ? { size: settings.workers } : {}), ...(settings.deadlineMs !== undefined ? { deadlineMs: settings.deadlineMs } : {}) };
    await this.close();
  }

  async generateKeyPair(): Promise<BbsKeyPair> {
    const pair = await this.run<{ secretKey: Uint8Array; publicKey: Uint8Array }>({ op: 'generate' });
    return { secretKey: new Uint8Array(pair.secretKey), publicKey: new Uint8Array(pair.publicKey) };
  }

  /**
   * The key pair BBS KeyGen derives from `seed` (32 bytes or more): the same seed gives the same
   * key, so a key derived from a sealed key need not be stored.
   */
  async keyPairFromSeed(seed: Uint8Array): Promise<BbsKeyPair> {
    if (seed.length < 32) throw new RangeError('a BBS key seed has at least 32 bytes');
    const pair = await this.run<{ secretKey: Uint8Array; publicKey: Uint8Array }>({ op: 'generate', seed });
    return { secretKey: new Uint8Array(pair.secretKey), publicKey: new Uint8Array(pair.publicKey) };
  }

  /** The base proof (for the holder, not for verifiers), with the issuer's mandatory pointers always disclosed. */
  async sign(credential: JsonObject, key: BbsKeyPair, mandatoryPointers: readonly string[]): Promise<JsonObject> {
    const { verificationMethod } = g2DidKey(key.publicKey);
    return this.run<JsonObject>({ op: 'sign', document: credential, secretKey: key.secretKey, publicKey: key.publicKey, verificationMethod, mandatoryPointers: checkPointers(mandatoryPointers, 'mandatoryPointers') });
  }

  /**
   * A derived credential disclosing the mandatory pointers and `selectivePointers` only. The key the
   * base proof names must be a BLS12-381 G2 did:key (INVALID_INPUT otherwise); a pointer that selects
   * nothing is INVALID_INPUT.
   */
  async derive(credential: JsonObject, selectivePointers: readonly string[], presentationHeader?: Uint8Array): Promise<JsonObject> {
    const pointers = checkPointers(selectivePointers, 'options.selectivePointers');
    const proof = credential['proof'];
    const method = proof !== null && typeof proof === 'object' && !Array.isArray(proof) ? (proof as JsonObject)['verificationMethod'] : undefined;
    if (typeof method === 'string') g2PublicKeyOf(method);
    return this.run<JsonObject>({ op: 'derive', document: credential, selectivePointers: pointers, presentationHeader: presentationHeader ?? new Uint8Array(randomBytes(32)) });
  }

  /** Verifies a derived proof with the public key its did:key names, and nothing else. */
  async verify(credential: unknown, expectedPresentationHeader?: Uint8Array): Promise<BbsVerification> {
    try {
      const r = await this.run<{ verificationMethod: string; controller: string }>({ op: 'verify', document: credential, ...(expectedPresentationHeader ? { expectedPresentationHeader } : {}) });
      return { verified: true, ...r };
    } catch (e) {
      if (e instanceof AppError && e.code === 'INVALID_INPUT') return { verified: false, reason: e.message };
      throw e;
    }
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
  }

  /** Worker failures as AppErrors: the caller's input or a failed proof is INVALID_INPUT (the worker said which). */
  private async run<T>(job: Parameters<BbsWorkerPool['run']>[0]): Promise<T> {
    // Started on first use: a deployment that never issues BBS credentials never starts a worker.
    this.pool ??= new BbsWorkerPool({ ...this.options, workerData: this.options.workerData ?? defaultWorkerData() });
    try {
      return await this.pool.run<T>(job);
    } catch (e) {
      if (e instanceof BbsJobFailure) {
        if (e.kind === 'fault') throw new Error(`bbs-2023 worker fault: ${e.message}`);
        throw invalidInput(e.message);
      }
      throw e;
    }
  }
}

/** The service's engine, shared by the format and the VC-API (one pool per process). */
export const bbs2023Engine = new Bbs2023Engine();
