import type { AnyJobDefinition, JobDefinition } from './define-job';
import { UnknownJobError } from './errors';

/**
 * The jobs one service defines. `Defs` is the union of its definitions, which is what
 * lets `enqueue('email.send', payload)` check `payload` against that job's schema.
 */
export interface JobRegistry<Defs extends AnyJobDefinition = AnyJobDefinition> {
  readonly names: readonly Defs['name'][];
  /** Looks up a name that came from outside the type system, e.g. a job read from Redis. */
  find(name: string): Defs | undefined;
  /** Like `find`, but throws UnknownJobError. */
  get(name: string): Defs;
}

export type JobNameOf<R extends JobRegistry> = R extends JobRegistry<infer Defs> ? Defs['name'] : never;

export type JobDefinitionOf<R extends JobRegistry, Name extends JobNameOf<R>> =
  R extends JobRegistry<infer Defs> ? Extract<Defs, { name: Name }> : never;

/** What the handler of `Name` receives. */
export type JobPayloadOf<R extends JobRegistry, Name extends JobNameOf<R>> =
  JobDefinitionOf<R, Name> extends JobDefinition<string, infer Payload, infer _Input> ? Payload : never;

/** What callers pass to `enqueue(Name, …)`. */
export type JobInputOf<R extends JobRegistry, Name extends JobNameOf<R>> =
  JobDefinitionOf<R, Name> extends JobDefinition<string, infer _Payload, infer Input> ? Input : never;

export function createJobRegistry<const Defs extends readonly AnyJobDefinition[]>(
  definitions: Defs,
): JobRegistry<Defs[number]> {
  const byName = new Map<string, Defs[number]>();
  for (const definition of definitions) {
    // Two definitions under one name would make the worker run whichever came last
    // for both, so this is refused outright.
    if (byName.has(definition.name)) throw new Error(`Job "${definition.name}" is defined twice in the registry`);
    byName.set(definition.name, definition);
  }
  const names = Object.freeze([...byName.keys()]);
  return Object.freeze({
    names,
    find: (name: string) => byName.get(name),
    get: (name: string) => {
      const definition = byName.get(name);
      if (!definition) throw new UnknownJobError(name);
      return definition;
    },
  });
}
