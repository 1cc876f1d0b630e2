import { ForbiddenError, NotFoundError } from '../errors';
import type { TokenType } from '../tokens/repository';

/** What the data endpoints need to know about the caller's token. */
export interface DataCaller {
  type: TokenType;
  /** INE codes the token may read; null: every municipality. */
  municipios: string[] | null;
}

/**
 * 403 INSUFFICIENT_SCOPE when the token's municipality allowlist leaves this code out:
 * the allowlist narrows what the token's scopes cover, so the contract answers
 * it with the scope code; the message says it is the municipality restriction.
 */
export function requireMunicipalityAllowed(caller: DataCaller, municipioId: string): void {
  if (caller.municipios && !caller.municipios.includes(municipioId)) {
    const allowed = caller.municipios.length <= 10 ? caller.municipios.join(', ') : `${caller.municipios.slice(0, 10).join(', ')} and ${caller.municipios.length - 10} more`;
    throw new ForbiddenError(
      `This token is restricted to municipalities ${allowed}; it may not read municipality ${municipioId}`,
      'INSUFFICIENT_SCOPE',
      { param: 'municipio_id' },
    );
  }
}

export function municipalityNotFound(municipioId: string): NotFoundError {
  return new NotFoundError(`No municipality has the INE code ${municipioId}`, 'MUNICIPALITY_NOT_FOUND', { param: 'municipio_id' });
}
