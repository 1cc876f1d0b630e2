/**
 * Waiting work of several clients, handed out in turns: the next item comes from the
 * client after the one served last, skipping clients that already run their cap. So one
 * client with a hundred jobs waiting delays another client's job by one turn, not a hundred.
 * Work without a client (internal jobs) shares one turn and has no cap.
 */
export class FairQueue<T> {
  /** Insertion order is the order of turns: a served client goes to the back. */
  private readonly waiting = new Map<string, T[]>();
  private readonly running = new Map<string, number>();
  private count = 0;

  constructor(private readonly perClient: number) {}

  static readonly ANONYMOUS = '';

  get size(): number {
    return this.count;
  }

  capOf(client: string): number {
    return client === FairQueue.ANONYMOUS ? Number.POSITIVE_INFINITY : this.perClient;
  }

  waitingOf(client: string): number {
    return this.waiting.get(client)?.length ?? 0;
  }

  runningOf(client: string): number {
    return this.running.get(client) ?? 0;
  }

  push(client: string, item: T): void {
    const items = this.waiting.get(client);
    if (items) items.push(item);
    else this.waiting.set(client, [item]);
    this.count++;
  }

  /** Drops an item that no longer wants to run (its caller went away); false when it was not waiting. */
  remove(client: string, item: T): boolean {
    const items = this.waiting.get(client);
    const i = items?.indexOf(item) ?? -1;
    if (!items || i < 0) return false;
    items.splice(i, 1);
    if (items.length === 0) this.waiting.delete(client);
    this.count--;
    return true;
  }

  /** The next item allowed to start, counted as running for its client until `done`. */
  take(): { client: string; item: T } | undefined {
    for (const [client, items] of this.waiting) {
      if (this.runningOf(client) >= this.capOf(client)) continue;
      const item = items.shift() as T;
      this.waiting.delete(client);
      if (items.length > 0) this.waiting.set(client, items);
      this.count--;
      this.running.set(client, this.runningOf(client) + 1);
      return { client, item };
    }
    return undefined;
  }

  done(client: string): void {
    const n = this.runningOf(client) - 1;
    if (n > 0) this.running.set(client, n);
    else this.running.delete(client);
  }

  /** Empties the queue (shutdown), returning what was waiting. */
  drain(): T[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.count = 0;
    return all;
  }
}

/** Half of a resource, at least one: a client never takes more than its half while it is larger than one. */
export const halfOf = (n: number) => Math.max(1, Math.floor(n / 2));
