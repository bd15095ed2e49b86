import { type Invalidation, type InvalidationBus, LruCache, RecordCache } from '../../src/cache';
import { parseInvalidation } from '../../src/cache/invalidation';

/** A bus the test drives: notices and liveness by hand. */
class ManualBus implements InvalidationBus {
  live = true;
  private readonly handlers: Invalidation[] = [];
  subscribe(fn: Invalidation): void {
    this.handlers.push(fn);
  }
  notice(topic: string, key: string): void {
    for (const fn of this.handlers) fn(topic, key);
  }
  async barrier(): Promise<void> {}
  async close(): Promise<void> {}
}

test('a bound of 0 keeps nothing (CREDGATE_CACHE_ENTRIES=0 turns caching off)', async () => {
  const off = new LruCache<string, number>(0);
  off.set('a', 1);
  expect([off.get('a'), off.size]).toEqual([undefined, 0]);
  const cache = new RecordCache<string>('t', 0, new ManualBus());
  let loads = 0;
  for (let i = 0; i < 2; i++) await cache.get('k', async () => (loads++, 'v'));
  expect(loads).toBe(2);
});

describe('RecordCache', () => {
  const loader = (values: Record<string, string | null>) => {
    const calls: string[] = [];
    return { calls, load: (key: string) => async () => (calls.push(key), values[key] ?? null) };
  };

  test('serves a loaded record from memory until its topic names it', async () => {
    const bus = new ManualBus();
    const cache = new RecordCache<{ v: string }>('t', 10, bus);
    let value = 'one';
    let loads = 0;
    const load = async () => (loads++, { v: value });
    expect(await cache.get('k', load)).toEqual({ v: 'one' });
    value = 'two';
    expect(await cache.get('k', load)).toEqual({ v: 'one' });
    bus.notice('other-topic', 'k');
    expect(await cache.get('k', load)).toEqual({ v: 'one' });
    bus.notice('t', 'k');
    expect(await cache.get('k', load)).toEqual({ v: 'two' });
    expect(loads).toBe(2);
  });

  test('never caches an absent record, and a notice for every topic clears all', async () => {
    const bus = new ManualBus();
    const cache = new RecordCache<string>('t', 10, bus);
    const { calls, load } = loader({ a: 'A' });
    await cache.get('missing', load('missing'));
    await cache.get('missing', load('missing'));
    await cache.get('a', load('a'));
    bus.notice('*', '*');
    await cache.get('a', load('a'));
    expect(calls).toEqual(['missing', 'missing', 'a', 'a']);
  });

  test('a load that raced an invalidation is returned but not kept', async () => {
    const bus = new ManualBus();
    const cache = new RecordCache<string>('t', 10, bus);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = cache.get('k', async () => (await gate, 'old'));
    bus.notice('t', 'k'); // the change commits while the old row is on its way
    release();
    expect(await slow).toBe('old');
    expect(await cache.get('k', async () => 'new')).toBe('new');
  });

  test('reads through while the bus cannot hear notices', async () => {
    const bus = new ManualBus();
    const cache = new RecordCache<string>('t', 10, bus);
    await cache.get('k', async () => 'cached');
    bus.live = false;
    expect(await cache.get('k', async () => 'fresh')).toBe('fresh');
  });

  test('cached records are frozen (shared by every caller)', async () => {
    const cache = new RecordCache<{ v: number }>('t', 10, new ManualBus());
    await cache.get('k', async () => ({ v: 1 }));
    expect(Object.isFrozen(await cache.get('k', async () => ({ v: 2 })))).toBe(true);
  });
});

test('notice payloads are <topic>:<key>; keys may hold colons', () => {
  expect(parseInvalidation('did:did:credgate:x')).toEqual(['did', 'did:credgate:x']);
  expect(parseInvalidation('nocolon')).toBeNull();
});
