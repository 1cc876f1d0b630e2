import { execFile } from 'node:child_process';
import { accessSync, constants, lstatSync, readlinkSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * Where the engines run. They parse untrusted files (LibreOffice follows links inside
 * them), so each run gets bubblewrap (`bwrap`): no network (every namespace unshared),
 * the system dirs read-only, a fresh /tmp, and of the service's files only the call's
 * own temp dir. DATA_DIR, the seal key and everything else the service can read stay
 * out of sight.
 *
 * Modes: `auto` uses bwrap where it works (probed once at start-up) and runs the engines
 * unsandboxed otherwise, with one warning; `bwrap` refuses to start without it; `off`
 * never sandboxes.
 */
export type EngineSandboxMode = 'auto' | 'bwrap' | 'off';
export const ENGINE_SANDBOX_MODES = ['auto', 'bwrap', 'off'] as const;

export interface SandboxCommand {
  program: string;
  argv: string[];
  env: Record<string, string>;
  cwd?: string;
  /**
   * The engine needs no /proc and, of /dev, only null, zero, random and urandom (qpdf,
   * poppler's pdfinfo): it gets just those, and only /tmp as scratch. Fewer mounts: 0.6 ms
   * less per run here (qpdf rotating 10 pages, 16.9 against 17.5 ms in bwrap), and less to see.
   */
  lean?: boolean;
}

export interface EngineSandbox {
  readonly kind: 'bwrap' | 'none';
  /**
   * The command that runs `command` in the sandbox. `dir` is the only directory of the
   * host the engine may read and write (the call's temp dir; its cwd by default).
   */
  wrap(command: SandboxCommand, dir?: string): SandboxCommand;
}

export const NO_SANDBOX: EngineSandbox = { kind: 'none', wrap: (command) => command };

/** Read-only system dirs the engines need (binaries, libraries, fonts, tessdata, LibreOffice, /etc/fonts). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'];
/** Optional read-only dirs: fontconfig's cache (without it every run rebuilds it). */
const OPTIONAL_DIRS = ['/var/cache/fontconfig'];

export interface BwrapOptions {
  /** The bwrap binary; found on PATH by default. */
  binary?: string;
  /**
   * Paths that must stay invisible even when they lie under a system dir (a seal key in
   * /etc, DATA_DIR under /usr...): a dir is covered with an empty tmpfs, a file with /dev/null (which the engine cannot open: the bind is nodev).
   */
  hide?: string[];
}

/** The bwrap sandbox (not probed: see resolveEngineSandbox). */
export function bwrapSandbox(options: BwrapOptions = {}): EngineSandbox {
  const binary = options.binary ?? 'bwrap';
  const base = baseArgs(options.hide ?? [], false);
  const lean = baseArgs(options.hide ?? [], true);
  const programs = new Map<string, string>();
  return {
    kind: 'bwrap',
    wrap(command, dir = command.cwd) {
      const program = resolveProgram(command.program, command.env.PATH, programs);
      const args = [...(command.lean ? lean : base)];
      // an engine installed outside the system dirs (/opt/...): its own dir, read-only
      const programDir = dirname(program);
      if (!underSystemDir(programDir)) args.push('--ro-bind', programDir, programDir);
      if (dir !== undefined) args.push('--bind', dir, dir);
      if (command.cwd !== undefined) args.push('--chdir', command.cwd);
      // the host's HOME and TMPDIR are not inside; an engine that writes there would fail
      const env = { ...command.env, HOME: homeOf(command.env.HOME, dir), TMPDIR: homeOf(command.env.TMPDIR, dir) };
      return { program: binary, argv: [...args, '--', program, ...command.argv], env, cwd: command.cwd };
    },
  };
}

/** Keeps a HOME/TMPDIR that is visible inside (the call's dir or below), else the call's dir, else /tmp. */
function homeOf(value: string | undefined, dir: string | undefined): string {
  if (value !== undefined && dir !== undefined && (value === dir || value.startsWith(`${dir}/`))) return value;
  return dir ?? '/tmp';
}

/** The devices a lean engine gets (SandboxCommand.lean), bound from the host where they exist. */
const LEAN_DEVICES = ['/dev/null', '/dev/zero', '/dev/random', '/dev/urandom'];

function baseArgs(hide: string[], lean: boolean): string[] {
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  for (const dir of SYSTEM_DIRS) {
    const info = lstatOrNull(dir);
    if (!info) continue;
    if (info.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else if (info.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  for (const dir of OPTIONAL_DIRS) args.push('--ro-bind-try', dir, dir);
  if (lean) {
    for (const device of LEAN_DEVICES) if (statOrNull(device)?.isCharacterDevice()) args.push('--dev-bind', device, device);
    args.push('--tmpfs', '/tmp');
  } else {
    args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp', '--tmpfs', '/run');
  }
  for (const path of hide) {
    const full = resolve(path);
    if (!underSystemDir(full)) continue; // not mounted at all
    const info = statOrNull(full);
    if (info?.isDirectory()) args.push('--tmpfs', full);
    else if (info) args.push('--ro-bind', '/dev/null', full);
  }
  return args;
}

function underSystemDir(path: string): boolean {
  return SYSTEM_DIRS.concat(OPTIONAL_DIRS).some((d) => path === d || path.startsWith(`${d}/`));
}

/** The engine's absolute path on the host's PATH, so a missing engine is reported as missing (ENOENT), not as a bwrap failure. */
function resolveProgram(program: string, path: string | undefined, cache: Map<string, string>): string {
  if (isAbsolute(program)) return program;
  const known = cache.get(program);
  if (known) return known;
  for (const dir of (path ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      if (!statSync(candidate).isFile()) continue;
    } catch {
      continue;
    }
    cache.set(program, candidate);
    return candidate;
  }
  throw Object.assign(new Error(`spawn ${program} ENOENT`), { code: 'ENOENT', errno: -2, syscall: `spawn ${program}`, path: program });
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

export class EngineSandboxUnavailableError extends Error {
  constructor(reason: string) {
    super(`ESIGN_ENGINE_SANDBOX=bwrap, but the engine sandbox cannot start here: ${reason}`);
    this.name = 'EngineSandboxUnavailableError';
  }
}

export interface ResolvedSandbox {
  sandbox: EngineSandbox;
  /** Why engines run unsandboxed in `auto` mode (log it once). */
  unavailable?: string;
}

/**
 * Probes bwrap once with the same arguments the engines get (a trivial command): user
 * namespaces may be off (sysctl, a container's seccomp or AppArmor profile).
 */
export async function resolveEngineSandbox(mode: EngineSandboxMode, options: BwrapOptions = {}): Promise<ResolvedSandbox> {
  if (mode === 'off') return { sandbox: NO_SANDBOX };
  const sandbox = bwrapSandbox(options);
  const reason = await probe(sandbox);
  if (reason === null) return { sandbox };
  if (mode === 'bwrap') throw new EngineSandboxUnavailableError(reason);
  return { sandbox: NO_SANDBOX, unavailable: reason };
}

function probe(sandbox: EngineSandbox): Promise<string | null> {
  let command: SandboxCommand;
  try {
    command = sandbox.wrap({ program: 'true', argv: [], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  } catch (err) {
    return Promise.resolve((err as Error).message);
  }
  return new Promise((done) => {
    execFile(command.program, command.argv, { env: command.env, timeout: 10_000 }, (err, _stdout, stderr) => {
      if (!err) return done(null);
      const code = (err as NodeJS.ErrnoException).code;
      done(code === 'ENOENT' ? `${command.program} is not installed` : String(stderr).trim() || err.message);
    });
  });
}
