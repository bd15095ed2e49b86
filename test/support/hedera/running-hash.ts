import { createHash } from 'node:crypto';

/** `shard.realm.num` as three numbers (Hedera entity ids: accounts, topics, files). */
export type EntityNum = readonly [bigint, bigint, bigint];

export function parseEntity(id: string): EntityNum {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(id);
  if (!m) throw new Error(`not an entity id: ${id}`);
  return [BigInt(m[1]!), BigInt(m[2]!), BigInt(m[3]!)];
}

export const RUNNING_HASH_VERSION = 3n;

function sha384(data: Uint8Array): Buffer {
  return createHash('sha384').update(data).digest();
}

/**
 * Topic running hash, version 3, field for field as consensus nodes compute it: SHA-384 over the
 * previous running hash (48 zero bytes before the first message), the version, the payer account,
 * the topic, the consensus timestamp (seconds, nanos), the new sequence number and SHA-384 of the
 * message. Simplification (documented in docs/OPERATIONS.md): the node writes these through a
 * Java ObjectOutputStream, which adds a stream header and block-data framing around them; here
 * they are plain big-endian fields, so the hashes chain the same way but are not byte-identical
 * to mainnet's.
 */
export function nextRunningHash(input: {
  readonly previous: Uint8Array;
  readonly payer: EntityNum;
  readonly topic: EntityNum;
  readonly seconds: bigint;
  readonly nanos: number;
  readonly sequenceNumber: bigint;
  readonly message: Uint8Array;
}): Buffer {
  const longs = [RUNNING_HASH_VERSION, ...input.payer, ...input.topic, input.seconds];
  const buf = Buffer.alloc(input.previous.length + longs.length * 8 + 4 + 8);
  let at = Buffer.from(input.previous).copy(buf, 0);
  for (const v of longs) at = buf.writeBigInt64BE(v, at);
  at = buf.writeInt32BE(input.nanos, at);
  buf.writeBigInt64BE(input.sequenceNumber, at);
  return sha384(Buffer.concat([buf, sha384(input.message)]));
}
