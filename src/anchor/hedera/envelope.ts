/**
 * The topic message of one checkpoint: compact JSON `{"credgate":"checkpoint/v1","logId","treeSize",
 * "rootHash","note"?}`. It names the log so several logs can share a topic and `find` can tell
 * them apart. HCS caps a message at 1024 bytes per chunk; the signed note (which grows with
 * witness cosignatures) is left out when it would not fit, because one message per batch keeps the
 * fee at one message and what receipts prove is (logId, treeSize, rootHash).
 */
import type { AnchorCheckpoint } from '../anchor.port';

export const ENVELOPE_TYPE = 'checkpoint/v1';
export const MAX_MESSAGE_BYTES = 1024;

export type AnchoredCheckpoint = Pick<AnchorCheckpoint, 'logId' | 'treeSize' | 'rootHash'> & { readonly note?: string };

export function encodeEnvelope(cp: AnchorCheckpoint): Buffer {
  const base = { credgate: ENVELOPE_TYPE, logId: cp.logId, treeSize: cp.treeSize, rootHash: cp.rootHash };
  const full = cp.note === undefined ? null : Buffer.from(JSON.stringify({ ...base, note: cp.note }));
  return full !== null && full.length <= MAX_MESSAGE_BYTES ? full : Buffer.from(JSON.stringify(base));
}

/** The checkpoint a topic message carries, or null for anything else posted to the topic. */
export function decodeEnvelope(message: Uint8Array): AnchoredCheckpoint | null {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(message).toString('utf8'));
  } catch {
    return null;
  }
  if (v === null || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (o.credgate !== ENVELOPE_TYPE || typeof o.logId !== 'string' || typeof o.rootHash !== 'string') return null;
  if (typeof o.treeSize !== 'number' || !Number.isSafeInteger(o.treeSize) || o.treeSize < 0) return null;
  const cp = { logId: o.logId, treeSize: o.treeSize, rootHash: o.rootHash };
  return typeof o.note === 'string' ? { ...cp, note: o.note } : cp;
}
