/**
 * A request's batching of one kind of read (the data loader pattern): every `load` made while GraphQL
 * resolves one level of a list (fifty products' `variants`) is answered by one call of `fetch` with all
 * their keys, and a key asked twice is read once. One loader lives for one request, so nothing read for
 * one caller is served to another.
 *
 * Mercurius has loaders of its own; they key each call by a stable stringification of its parent (a
 * whole product document, for `Product.variants`), work that grows with the answer. Here the key is
 * the product's id.
 */
export class BatchLoader<Key, Value> {
  private readonly asked = new Map<Key, Promise<Value | undefined>>();
  private waiting: Array<{
    key: Key;
    settle: (value: Value | undefined) => void;
    fail: (e: unknown) => void;
  }> = [];

  constructor(private readonly fetch: (keys: Key[]) => Promise<Map<Key, Value>>) {}

  load(key: Key): Promise<Value | undefined> {
    const known = this.asked.get(key);
    if (known) return known;
    if (this.waiting.length === 0) {
      // after the promise jobs under way: the rest of the level's fields are resolved in them
      void Promise.resolve().then(() => process.nextTick(() => this.dispatch()));
    }
    const promise = new Promise<Value | undefined>((settle, fail) =>
      this.waiting.push({ key, settle, fail }),
    );
    this.asked.set(key, promise);
    return promise;
  }

  private dispatch(): void {
    const batch = this.waiting;
    this.waiting = [];
    this.fetch(batch.map(({ key }) => key)).then(
      (found) => {
        for (const { key, settle } of batch) settle(found.get(key));
      },
      (error: unknown) => {
        for (const { fail } of batch) fail(error);
      },
    );
  }
}
