import { FrontierCache, type Frontier } from '../../src/ledger/frontier-cache';
import { type LedgerCheckpoint, unwitnessed } from '../../src/ledger/ledger.port';

/**
 * The frontier cache's life cycle (src/ledger/frontier-cache.ts): a frontier is usable only after
 * the commit of the head it was staged with, a take removes it (so a failed tick's retry reads),
 * a smaller size never replaces a larger one, and the least recently committed log goes first.
 */
const head = (logId: string, treeSize: number): LedgerCheckpoint => ({
  logId,
  origin: `o/${logId}`,
  treeSize,
  rootHash: '',
  note: '',
  verifierKey: '',
  publicKey: '',
  signedAt: '',
  ...unwitnessed(),
});
const frontier = (size: number): Frontier => ({ size, root: new Uint8Array(32).fill(size), nodes: new Map() });

test('staged is not usable; committed is, once: take removes it', () => {
  const cache = new FrontierCache();
  const h = head('0.0.1', 3);
  cache.stage(h, '1', frontier(3));
  expect(cache.take('1')).toBeUndefined();
  cache.commit(h);
  expect(cache.take('1')?.size).toBe(3);
  expect(cache.take('1')).toBeUndefined();
});

test('a head that was never staged (another path, or a copy of the object) records nothing', () => {
  const cache = new FrontierCache();
  const h = head('0.0.1', 3);
  cache.stage(h, '1', frontier(3));
  cache.commit({ ...h });
  expect(cache.size).toBe(0);
  cache.commit(head('0.0.2', 1));
  expect(cache.size).toBe(0);
});

test('a commit is recorded once: committing the same head again after a take does not bring it back', () => {
  const cache = new FrontierCache();
  const h = head('0.0.1', 3);
  cache.stage(h, '1', frontier(3));
  cache.commit(h);
  cache.take('1');
  cache.commit(h);
  expect(cache.take('1')).toBeUndefined();
});

test('a smaller size committed late does not replace a larger one', () => {
  const cache = new FrontierCache();
  const small = head('0.0.1', 3);
  const large = head('0.0.1', 5);
  cache.stage(small, '1', frontier(3));
  cache.stage(large, '1', frontier(5));
  cache.commit(large);
  cache.commit(small);
  expect(cache.take('1')?.size).toBe(5);
});

test('drop and clear forget logs', () => {
  const cache = new FrontierCache();
  for (const seq of ['1', '2', '3']) {
    const h = head(`0.0.${seq}`, 1);
    cache.stage(h, seq, frontier(1));
    cache.commit(h);
  }
  cache.drop('2');
  expect(cache.take('2')).toBeUndefined();
  expect(cache.size).toBe(2);
  cache.clear();
  expect(cache.size).toBe(0);
});

test('bounded: beyond capacity the least recently committed log goes', () => {
  const cache = new FrontierCache(2);
  const commit = (seq: string, size: number): void => {
    const h = head(`0.0.${seq}`, size);
    cache.stage(h, seq, frontier(size));
    cache.commit(h);
  };
  commit('1', 1);
  commit('2', 1);
  commit('1', 2); // log 1 used again: now the most recent
  commit('3', 1);
  expect(cache.size).toBe(2);
  expect(cache.take('2')).toBeUndefined();
  expect(cache.take('1')?.size).toBe(2);
  expect(cache.take('3')?.size).toBe(1);
});
