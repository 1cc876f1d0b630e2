import { Writable } from 'node:stream';

/**
 * Probes `url` (a /health) every `everyMs` until stopped, each probe with `budgetMs` to
 * answer 200: what a load balancer would see while a test throws hostile input at the
 * service. `failures` lists what went wrong (status or timeout).
 *
 * The default budget is 2 s. Alone, the corpora's slowest probe answers in about 0.1 s;
 * with the whole suite loading both cores, one probe once took just over 1 s, the old
 * budget, without anything hostile blocking the service. A hang (an engine or a parse
 * that never ends) still fails it.
 */
export function startHealthProbe(url: string, options: { budgetMs?: number; everyMs?: number } = {}) {
  const state = { probes: 0, failures: [] as string[] };
  let running = true;
  const loop = (async () => {
    while (running) {
      state.probes++;
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(options.budgetMs ?? 2000) });
        if (res.status !== 200) state.failures.push(`status ${res.status}`);
      } catch (err) {
        state.failures.push(String((err as Error).name));
      }
      await new Promise((r) => setTimeout(r, options.everyMs ?? 200));
    }
  })();
  return {
    state,
    async stop() {
      running = false;
      await loop;
      return state;
    },
  };
}

/** A pino destination that keeps every log line, to check what a flow logged. */
export function captureLogLines(): { lines: string[]; destination: Writable } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, destination };
}
