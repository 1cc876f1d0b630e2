import { access, constants as fsConstants } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import { createEngineRunner } from './engine-runner';
import { ENGINES, ENGINE_NAMES, engineBinary, isEngineName, type EngineBinaries, type EngineName } from './engines';

export interface EngineStatus {
  available: boolean;
  version: string | null;
  /** Where the binary was found; absent when it was not. */
  path?: string;
}

export interface DiscoverOptions {
  /** Probe again even for engines already found in this process. */
  refresh?: boolean;
  binaries?: EngineBinaries;
  timeoutMs?: number;
}

/** soffice --version takes a few hundred ms, and seconds on a cold first start. */
const PROBE_TIMEOUT_MS = 10_000;
const PROBE_MAX_OUTPUT_BYTES = 64 * 1024;

/**
 * Results by binary and version arguments. Only engines that were found are kept for
 * the process lifetime, since an installed version does not change under a running
 * process; a missing or failing engine is probed again, as it may be being installed.
 */
const cache = new Map<string, Promise<EngineStatus>>();

/**
 * Reports, for each engine, whether it runs here and its version. Never throws: an
 * engine that is missing, fails or hangs is reported as unavailable. Unknown names
 * (from a query string, say) are reported as unavailable too.
 */
export async function discoverEngines(
  names: readonly EngineName[] = ENGINE_NAMES,
  options: DiscoverOptions = {},
): Promise<Record<string, EngineStatus>> {
  const entries = await Promise.all(
    names.map(async (name): Promise<[string, EngineStatus]> => {
      if (!isEngineName(name)) return [name, { available: false, version: null }];
      return [name, await statusOf(name, options)];
    }),
  );
  return Object.fromEntries(entries);
}

function statusOf(engine: EngineName, options: DiscoverOptions): Promise<EngineStatus> {
  const binary = engineBinary(engine, options.binaries);
  const key = JSON.stringify([binary, ENGINES[engine].versionArgs]);
  const cached = cache.get(key);
  if (cached && !options.refresh) return cached;

  const probing = probe(engine, binary, options.timeoutMs ?? PROBE_TIMEOUT_MS);
  cache.set(key, probing);
  void probing.then((status) => {
    if (!status.available && cache.get(key) === probing) cache.delete(key);
  });
  return probing;
}

async function probe(engine: EngineName, binary: string, timeoutMs: number): Promise<EngineStatus> {
  const runner = createEngineRunner({ binaries: { [engine]: binary } });
  try {
    const [result, path] = await Promise.all([
      runner.run(engine, ENGINES[engine].versionArgs, { timeoutMs, maxOutputBytes: PROBE_MAX_OUTPUT_BYTES }),
      findExecutable(binary),
    ]);
    const version = parseVersion(result.stdout.toString('utf8')) ?? parseVersion(result.stderr);
    // Older poppler tools exit 99 after printing their version, so a version counts as success too.
    if (result.exitCode !== 0 && version === null) return { available: false, version: null };
    return path === undefined ? { available: true, version } : { available: true, version, path };
  } catch {
    return { available: false, version: null };
  }
}

/**
 * The first dotted number of a version banner: `qpdf version 11.3.0` -> `11.3.0`,
 * `LibreOffice 7.4.7.2 40(Build:2)` -> `7.4.7.2`, `14.0.1+dfsg1` -> `14.0.1`.
 */
export function parseVersion(output: string): string | null {
  return /\d+(?:\.\d+)+/.exec(output)?.[0] ?? null;
}

/** The absolute path spawn would run for `binary`, looked up on PATH like execvp does. */
async function findExecutable(binary: string): Promise<string | undefined> {
  const candidates = binary.includes('/')
    ? [resolve(binary)]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, binary));
  for (const candidate of candidates) {
    try {
      await access(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      // not here, try the next directory
    }
  }
  return undefined;
}
