import { ForbiddenError, NotFoundError } from '@platform/errors';
import type { TokenType } from '../tokens/repository';

/** What the data endpoints need to know about the caller's token. */
export interface DataCaller {
  type: TokenType;
  /** INE codes the token may read; null: every municipality. */
  municipios: string[] | null;
}

/** 403 MUNICIPALITY_NOT_ALLOWED when the token's municipality allowlist leaves this code out. */
export function requireMunicipalityAllowed(caller: DataCaller, municipioId: string): void {
  if (caller.municipios && !caller.municipios.includes(municipioId)) {
    throw new ForbiddenError(`This token may not read municipality ${municipioId}`, 'MUNICIPALITY_NOT_ALLOWED', { param: 'municipio_id' });
  }
}

export function municipalityNotFound(municipioId: string): NotFoundError {
  return new NotFoundError(`No municipality has the INE code ${municipioId}`, 'MUNICIPALITY_NOT_FOUND', { param: 'municipio_id' });
}
