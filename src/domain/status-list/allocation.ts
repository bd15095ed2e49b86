import { randomInt } from 'node:crypto';

/**
 * Random slot allocation within a status list. Sequential indices tell anyone who sees two
 * credentials how many were issued between them (and, with the list, roughly when); a uniformly
 * random free slot tells nothing beyond "it was free". The allocation map is a separate
 * bitstring (bit i set = slot i is taken; same bit order as the status list: index 0 is the most
 * significant bit of byte 0), kept private beside the public list.
 */

/** Random probes before falling back to a scan; with the list at most 7/8 full, 64 probes all miss with probability < 2e-4. */
const PROBES = 64;

export type RandomIndex = (maxExclusive: number) => number;

const taken = (map: Uint8Array, i: number): boolean => ((map[i >>> 3] ?? 0) & (0x80 >>> (i & 7))) !== 0;

/**
 * A free slot of `map` (of `map.length * 8` slots), chosen uniformly by rejection sampling; when
 * the list is nearly full, the first free slot after a random start (slightly less uniform, still
 * not sequential). Null when every slot is taken.
 */
export function pickFreeSlot(map: Uint8Array, random: RandomIndex = randomInt): number | null {
  const size = map.length * 8;
  if (size === 0) return null;
  for (let k = 0; k < PROBES; k += 1) {
    const i = random(size);
    if (!taken(map, i)) return i;
  }
  const start = random(size);
  for (let k = 0; k < size; k += 1) {
    const i = (start + k) % size;
    if (!taken(map, i)) return i;
  }
  return null;
}

/** A copy of `map` with slot `index` marked taken. */
export function markSlot(map: Uint8Array, index: number): Uint8Array {
  const out = Uint8Array.from(map);
  out[index >>> 3] = (out[index >>> 3] ?? 0) | (0x80 >>> (index & 7));
  return out;
}
