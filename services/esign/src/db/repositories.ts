import { createAuditRepository } from '../audit/repository';
import { createDocumentsRepository } from '../documents/repository';
import { createMailRepository } from '../mail/repository';
import { createSigningRequestsRepository } from '../signing-requests/repository';
import type { EsignDb } from './index';

function bind(db: EsignDb) {
  return {
    documents: createDocumentsRepository(db),
    requests: createSigningRequestsRepository(db),
    audit: createAuditRepository(db),
    outbox: createMailRepository(db),
  };
}

export type RepositorySet = ReturnType<typeof bind>;

export interface Repositories extends RepositorySet {
  /**
   * Runs `fn` in one database transaction with repositories bound to it. Services decide
   * what is atomic; jobs they enqueue go out after this resolves (after commit).
   */
  transaction<T>(fn: (tx: RepositorySet) => Promise<T>): Promise<T>;
}

export function createRepositories(db: EsignDb): Repositories {
  return {
    ...bind(db),
    // A drizzle transaction offers the same query API as the database it came from.
    transaction: (fn) => db.transaction((tx) => fn(bind(tx as unknown as EsignDb))),
  };
}
