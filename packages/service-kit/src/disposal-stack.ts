import type { Logger } from 'pino';

interface Disposal {
  name: string;
  close: () => unknown;
}

/**
 * What a process opened, released in reverse: each `open` (or `defer`) pushes its close
 * once the thing is open, so a start that fails half-way releases exactly what it had
 * opened, and `dispose` releases everything at shutdown. A failing close is logged and the
 * rest still run; `dispose` then rejects with the first failure. Disposing twice releases once.
 */
export class DisposalStack {
  readonly #steps: Disposal[] = [];
  #disposed: Promise<void> | undefined;

  constructor(private readonly logger?: Pick<Logger, 'warn'>) {}

  /** Registers `close`, to run before everything registered earlier. */
  defer(name: string, close: () => unknown): void {
    if (this.#disposed) throw new Error(`cannot register "${name}": the stack is disposed`);
    this.#steps.push({ name, close });
  }

  /** Opens a resource and registers its close; an open that throws registers nothing. */
  async open<T>(name: string, open: () => T | Promise<T>, close: (value: T) => unknown): Promise<T> {
    const value = await open();
    this.defer(name, () => close(value));
    return value;
  }

  /** The names still to release, last opened first. */
  get pending(): string[] {
    return this.#steps.map((step) => step.name).reverse();
  }

  dispose(): Promise<void> {
    this.#disposed ??= this.#release();
    return this.#disposed;
  }

  async #release(): Promise<void> {
    let first: { error: unknown } | undefined;
    for (let step = this.#steps.pop(); step; step = this.#steps.pop()) {
      try {
        await step.close();
      } catch (error) {
        this.logger?.warn({ err: error, step: step.name }, 'could not release');
        first ??= { error };
      }
    }
    if (first) throw first.error;
  }
}
