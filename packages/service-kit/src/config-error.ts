/**
 * Thrown at start-up when the environment is invalid; the message names every bad variable.
 * Its own module, so a CLI's storage command checks for it without loading zod.
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}
