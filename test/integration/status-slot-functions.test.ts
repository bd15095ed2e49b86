import { randomInt } from 'node:crypto';
import { markSlot } from '../../src/domain/status-list';
import { useMigratedDatabase } from '../support/test-db';

/**
 * The slot functions of migration 20261127120000_status_slot_functions (Family B issuance draws and
 * marks status-list slots in the database, issue 19). They must keep the rules of
 * src/domain/status-list/allocation.ts: bit order of the W3C bitstring (slot 0 = most significant
 * bit of byte 0), distinct free slots only, the caller's random probes, a scan when a nearly full
 * list defeats them, fewer slots than asked only when the list is full. PostgreSQL, or PGlite with
 * CREDGATE_TEST_DB=pglite.
 */
const suite = useMigratedDatabase();

const PER_SLOT = 8;
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
async function pick(map: Uint8Array, probes: number[], perSlot = PER_SLOT): Promise<number[]> {
  const [row] = await suite.db.sql.query<{ slots: number[] }>(`SELECT credgate_status_slots_pick(decode($1, 'hex'), $2::int[], $3) AS slots`, [hex(map), probes, perSlot]);
  return row!.slots.map(Number);
}
async function mark(map: Uint8Array, slots: number[]): Promise<Uint8Array> {
  const [row] = await suite.db.sql.query<{ map: string }>(`SELECT encode(credgate_status_slots_mark(decode($1, 'hex'), $2::int[]), 'hex') AS map`, [hex(map), slots]);
  return Uint8Array.from(Buffer.from(row!.map, 'hex'));
}
const taken = (map: Uint8Array, i: number) => (map[i >>> 3]! & (0x80 >>> (i & 7))) !== 0;

describe('credgate_status_slots_mark', () => {
  test('marks slots in the W3C bit order, exactly as markSlot does', async () => {
    expect(hex(await mark(new Uint8Array(2), [0]))).toBe('8000');
    expect(hex(await mark(new Uint8Array(2), [7, 9]))).toBe('0140');
    const slots = Array.from({ length: 40 }, () => randomInt(1024 * 8));
    const expected = slots.reduce<Uint8Array>((m, s) => markSlot(m, s), new Uint8Array(1024));
    expect(hex(await mark(new Uint8Array(1024), slots))).toBe(hex(expected));
  });
});

describe('credgate_status_slots_pick', () => {
  test('an empty list: the first probe of each wanted slot, reduced modulo the size', async () => {
    const map = new Uint8Array(16);
    const probes = [3, 99, 99, 99, 99, 99, 99, 99, 128 + 5, 1, 1, 1, 1, 1, 1, 1];
    expect(await pick(map, probes)).toEqual([3, 5]);
  });

  test('a taken probe is skipped, and two credentials never get the same slot', async () => {
    const map = await mark(new Uint8Array(16), [10]);
    expect(await pick(map, [10, 11, 0, 0, 0, 0, 0, 0, /* second */ 11, 12, 0, 0, 0, 0, 0, 0])).toEqual([11, 12]);
  });

  test('every slot it hands out was free, all distinct, on a half-full list with random probes', async () => {
    let map: Uint8Array = new Uint8Array(64);
    for (let i = 0; i < 256; i++) map = markSlot(map, randomInt(512));
    const probes = Array.from({ length: 100 * PER_SLOT }, () => randomInt(2 ** 31));
    const slots = await pick(map, probes);
    expect(slots).toHaveLength(100);
    expect(new Set(slots).size).toBe(100);
    for (const s of slots) expect(taken(map, s)).toBe(false);
  });

  test('when every probe hits a taken slot it scans on to the free ones; a full list gives fewer slots than wanted', async () => {
    const map = Uint8Array.from([0xff, 0xfe, 0xff, 0x7f]); // free: slot 15 and slot 24
    const probes = Array(3 * PER_SLOT).fill(0); // all probes hit slot 0 (taken)
    expect((await pick(map, probes)).sort((a, b) => a - b)).toEqual([15, 24]);
    expect(await pick(new Uint8Array(4).fill(0xff), probes)).toEqual([]);
  });

  test('the probes decide the slot: the same map and probes give the same slots, other probes other slots', async () => {
    const map = new Uint8Array(2048);
    const probes = Array.from({ length: 4 * PER_SLOT }, () => randomInt(2 ** 31));
    const a = await pick(map, probes);
    expect(await pick(map, probes)).toEqual(a);
    expect(a).toEqual([0, 1, 2, 3].map((k) => probes[k * PER_SLOT]! % (2048 * 8)));
  });
});

describe('storage of the maps (migration 20261127180000_status_maps_uncompressed)', () => {
  test('every status list map is stored EXTERNAL (uncompressed)', async () => {
    const rows = await suite.db.sql.query<{ tbl: string; col: string; storage: string }>(
      `SELECT c.relname AS tbl, a.attname AS col, a.attstorage AS storage FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE c.relname IN ('status_lists', 'vc_status_lists', 'token_status_lists') AND a.attname IN ('bits', 'allocated') ORDER BY 1, 2`,
    );
    // Each tick rewrites its list's map: pglz took most of the tick's write compressing random bits.
    expect(rows.map((r) => `${r.tbl}.${r.col}=${r.storage}`)).toEqual([
      'status_lists.allocated=e',
      'status_lists.bits=e',
      'token_status_lists.allocated=e',
      'token_status_lists.bits=e',
      'vc_status_lists.allocated=e',
      'vc_status_lists.bits=e',
    ]);
  });
});
