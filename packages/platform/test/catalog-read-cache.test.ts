import { describe, expect, it, vi } from 'vitest';
import { CatalogReadCache } from '../src/catalog/read-cache.ts';

describe("visitors' catalog read cache", () => {
  it('answers a repeated read from memory until its time is up', async () => {
    vi.useFakeTimers();
    try {
      const cache = new CatalogReadCache(1000);
      const compute = vi.fn(async () => `answer ${compute.mock.calls.length}`);
      expect(await cache.get('k', compute)).toBe('answer 1');
      expect(await cache.get('k', compute)).toBe('answer 1');
      vi.advanceTimersByTime(1001);
      expect(await cache.get('k', compute)).toBe('answer 2');
    } finally {
      vi.useRealTimers();
    }
  });

  it('forgets everything when the catalog is written', async () => {
    const cache = new CatalogReadCache(60_000);
    await cache.get('k', async () => 'before');
    cache.clear();
    expect(await cache.get('k', async () => 'after')).toBe('after');
  });

  it('does not keep an answer read while a write landed', async () => {
    const cache = new CatalogReadCache(60_000);
    await cache.get('k', async () => {
      cache.clear(); // a write finishing while this read was under way
      return 'maybe stale';
    });
    expect(await cache.get('k', async () => 'fresh')).toBe('fresh');
  });

  it('is off with a time of zero', async () => {
    const cache = new CatalogReadCache(0);
    await cache.get('k', async () => 'one');
    expect(await cache.get('k', async () => 'two')).toBe('two');
  });

  it('holds a bounded number of answers', async () => {
    const cache = new CatalogReadCache(60_000, 2);
    await cache.get('a', async () => 'a1');
    await cache.get('b', async () => 'b1');
    await cache.get('c', async () => 'c1');
    expect(await cache.get('a', async () => 'a2')).toBe('a2');
    expect(await cache.get('c', async () => 'c2')).toBe('c1');
  });
});
