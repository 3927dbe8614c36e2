/**
 * Visitors' catalog answers, kept for a moment: the hosted platform serves the same reads from a CDN.
 * A write through this process empties it at once; a write by another process (several platforms over
 * one PostgreSQL database) shows after at most `ttlMs`. Admin reads never come from here.
 */
export class CatalogReadCache {
  private readonly entries = new Map<string, { text: string; expires: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 2000,
  ) {}

  /** The text kept under `key`, else `compute`'s, kept unless `keep` says no (an answer with errors). */
  async get(
    key: string,
    compute: () => Promise<string>,
    keep: (text: string) => boolean = () => true,
  ): Promise<string> {
    if (this.ttlMs <= 0) return compute();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.text;
    const generation = this.generation;
    const text = await compute();
    // a write that landed while this read ran may have changed the answer: don't keep it
    if (generation === this.generation && keep(text)) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { text, expires: now + this.ttlMs });
    }
    return text;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
