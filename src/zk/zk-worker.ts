import { ZK_CORE_SOURCE } from './core-source';

/**
 * The zero-knowledge worker: the core (core-source.ts) behind a message protocol. The WASM module
 * (~28 MB) is loaded here, by absolute path from workerData, so only a process that actually runs a
 * ZK operation ever pays its 0.4 s start and its memory.
 *
 * Protocol (structured clone), one job at a time:
 *   worker -> main  { type: 'ready' } | { type: 'init-error', message }
 *   main -> worker  { id, op: 'publicKey' | 'sign' | 'pseudonym' | 'prove' | 'verify', input }
 *   worker -> main  { type: 'result', id, value } | { type: 'error', id, code }
 * `code` is PREDICATE_FALSE or SIGNATURE_INVALID (the core's own refusals) or FAILED.
 */
export interface ZkWorkerData {
  /** Absolute path of @docknetwork/crypto-wasm-ts's entry. */
  readonly library: string;
}

export type ZkOp = 'publicKey' | 'sign' | 'pseudonym' | 'prove' | 'verify';

export interface ZkJobMessage {
  id: number;
  op: ZkOp;
  input: unknown;
}

export type ZkFailureCode = 'PREDICATE_FALSE' | 'SIGNATURE_INVALID' | 'FAILED';

export type ZkWorkerMessage =
  | { type: 'ready' }
  | { type: 'init-error'; message: string }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; code: ZkFailureCode };

export const ZK_WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
${ZK_CORE_SOURCE}
(async () => {
  let core;
  try {
    const z = require(workerData.library);
    await z.initializeWasm();
    core = makeZkCore(z);
  } catch (e) {
    parentPort.postMessage({ type: 'init-error', message: String(e && e.message || e) });
    return;
  }
  parentPort.on('message', (job) => {
    try {
      parentPort.postMessage({ type: 'result', id: job.id, value: core[job.op](job.input) });
    } catch (e) {
      const m = String(e && e.message || '');
      parentPort.postMessage({ type: 'error', id: job.id, code: m === 'PREDICATE_FALSE' || m === 'SIGNATURE_INVALID' ? m : 'FAILED' });
    }
  });
  parentPort.postMessage({ type: 'ready' });
})();
`;
