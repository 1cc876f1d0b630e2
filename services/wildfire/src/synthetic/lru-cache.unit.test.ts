import { LruCache } from './lru-cache';

describe('LruCache', () => {
  it('evicts the least recently used entry beyond its capacity', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.size).toBe(2);
  });

  it('makes a value once and then serves it from the cache', () => {
    const cache = new LruCache<string, number>(4);
    let made = 0;
    const make = () => ++made;
    expect(cache.getOrCreate('k', make)).toBe(1);
    expect(cache.getOrCreate('k', make)).toBe(1);
    expect(made).toBe(1);
  });

  it('refuses a capacity below 1', () => {
    expect(() => new LruCache(0)).toThrow(RangeError);
  });
});
