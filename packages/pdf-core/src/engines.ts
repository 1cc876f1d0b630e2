/**
 * The command-line engines the PDF tools may call, by a stable name, with the binary
 * to run and the arguments that make it print its version.
 */
export interface EngineSpec {
  binary: string;
  versionArgs: readonly string[];
  /** Runs in the lean sandbox: no /proc, of /dev only null, zero, random and urandom (engine-sandbox.ts). */
  lean?: boolean;
}

export const ENGINES = {
  ghostscript: { binary: 'gs', versionArgs: ['--version'] },
  qpdf: { binary: 'qpdf', versionArgs: ['--version'], lean: true },
  libreoffice: { binary: 'soffice', versionArgs: ['--version'] },
  ocrmypdf: { binary: 'ocrmypdf', versionArgs: ['--version'] },
  // poppler's tools print their version to stderr
  pdftoppm: { binary: 'pdftoppm', versionArgs: ['-v'] },
  pdfinfo: { binary: 'pdfinfo', versionArgs: ['-v'], lean: true },
  pdftotext: { binary: 'pdftotext', versionArgs: ['-v'] },
  pdfsig: { binary: 'pdfsig', versionArgs: ['-v'] },
  mutool: { binary: 'mutool', versionArgs: ['-v'] },
  tesseract: { binary: 'tesseract', versionArgs: ['--version'] },
} as const satisfies Record<string, EngineSpec>;

export type EngineName = keyof typeof ENGINES;

export const ENGINE_NAMES = Object.keys(ENGINES) as EngineName[];

/**
 * Binaries to run instead of the registry's, by engine: an absolute path where an
 * engine lives outside PATH, or a stand-in program in tests.
 */
export type EngineBinaries = Partial<Record<EngineName, string>>;

export function isEngineName(name: string): name is EngineName {
  return Object.prototype.hasOwnProperty.call(ENGINES, name);
}

export function engineBinary(engine: EngineName, binaries: EngineBinaries = {}): string {
  return binaries[engine] ?? ENGINES[engine].binary;
}

/** Whether the engine runs in the lean sandbox (EngineSpec.lean). */
export function isLeanEngine(engine: EngineName): boolean {
  return (ENGINES[engine] as EngineSpec).lean === true;
}
