import type { AdminLogRepository } from '../admin-log/repository';
import { ForbiddenError } from '../errors';
import type { TokenRecord } from './repository';
import { ADMIN_TOKENS_SCOPE, type CreateTokenInput, type TokensService } from './service';

/** Who manages tokens: a token holding `admin:tokens` (REST), or the operator CLI. */
export type TokenActor = { via: 'rest'; tokenId: string; account: string } | { via: 'cli' };

export const CLI_ACTOR: TokenActor = { via: 'cli' };

export interface TokenAdministrationDeps {
  tokens: Pick<TokensService, 'create' | 'revoke' | 'rotate' | 'list' | 'activeToken'>;
  log: Pick<AdminLogRepository, 'append'>;
  clock: () => Date;
}

/**
 * Token operations that operators make (REST under `/api/v1/admin/tokens`, and the CLI),
 * each written to the admin log with who made it. Over REST only live and test tokens with
 * the interface's four scopes are created, and a token holding `admin:tokens` is not rotated
 * (a rotation would grant the scope again): both stay with the CLI.
 */
export function createTokenAdministration(deps: TokenAdministrationDeps) {
  const { tokens } = deps;

  async function logged(actor: TokenActor, action: 'token_created' | 'token_revoked' | 'token_rotated', token: TokenRecord, details: Record<string, string | number | boolean | null> = {}) {
    await deps.log.append({
      at: deps.clock(),
      actorTokenId: actor.via === 'rest' ? actor.tokenId : null,
      actor: actor.via === 'rest' ? `account:${actor.account}` : 'cli',
      action,
      account: token.account,
      tokenId: token.id,
      details: { prefix: token.prefix, ...details },
    });
  }

  return {
    list: (account?: string) => tokens.list(account),

    async create(input: CreateTokenInput, actor: TokenActor) {
      const created = await tokens.create(input, { grantAdmin: actor.via === 'cli' });
      await logged(actor, 'token_created', created.record, { type: created.record.type, scopes: created.record.scopes.join(' ') });
      return created;
    },

    /** Null when no active token matches. */
    async revoke(ref: string, actor: TokenActor) {
      const revoked = await tokens.revoke(ref);
      if (revoked) await logged(actor, 'token_revoked', revoked);
      return revoked;
    },

    /** Null when no active token matches. */
    async rotate(ref: string, graceMs: number | undefined, actor: TokenActor) {
      if (actor.via === 'rest') {
        const current = await tokens.activeToken(ref);
        if (current?.scopes.includes(ADMIN_TOKENS_SCOPE)) {
          throw new ForbiddenError(`Token ${current.id} holds ${ADMIN_TOKENS_SCOPE}: rotate it with the operator CLI`, 'CLI_ONLY');
        }
      }
      const rotated = await tokens.rotate(ref, graceMs);
      if (rotated) await logged(actor, 'token_rotated', rotated.record, { replaces: rotated.old.id, replaced_expires_at: rotated.old.expiresAt?.toISOString() ?? null });
      return rotated;
    },
  };
}

export type TokenAdministration = ReturnType<typeof createTokenAdministration>;
