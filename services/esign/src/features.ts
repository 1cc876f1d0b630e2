import { join } from 'node:path';
import { createTsaClient, type PdfWorkerPool, type SigningIdentity } from '@firma-riesgo/pdf-core';
import type { JobQueue, Logger } from '@firma-riesgo/service-kit';
import type { EsignConfig } from './config';
import type { EsignDb } from './db';
import { createRepositories, type Repositories } from './db/repositories';
import { createDocumentsService, type DocumentsService } from './documents/service';
import type { EsignJobs } from './jobs/registry';
import { createSignaturesService, type SignaturesService } from './signatures/service';
import { createSigneeService, type SigneeService } from './signee/service';
import { createSigningRequestsService, type SigningRequestsService } from './signing-requests/service';
import { createFileStore, type FileStore } from './storage/file-store';
import { createVerificationService, type VerificationService } from './verification/service';

/** The signing side of esign: documents, requests, the signee flow and the seals, wired explicitly. */
export interface SigningFeatures {
  repos: Repositories;
  files: FileStore;
  identity: SigningIdentity;
  documents: DocumentsService;
  requests: SigningRequestsService;
  signee: SigneeService;
  signatures: SignaturesService;
  verification: VerificationService;
}

export function createSigningFeatures(deps: {
  config: EsignConfig;
  db: EsignDb;
  identity: SigningIdentity;
  /** Late-bound: the job handlers need these services, and these services enqueue jobs. */
  jobs: Pick<JobQueue<EsignJobs>, 'enqueue'>;
  logger: Logger;
  /** Worker threads for untrusted image decoding (the PDF tools' pool). */
  pool: Pick<PdfWorkerPool, 'run'>;
}): SigningFeatures {
  const { config, logger, jobs } = deps;
  const repos = createRepositories(deps.db);
  const files = createFileStore(join(config.dataDir, 'esign', 'files'));
  const signatures = createSignaturesService({
    repos,
    db: deps.db,
    files,
    identity: deps.identity,
    tsa: config.signing.tsaUrl ? createTsaClient({ url: config.signing.tsaUrl }) : undefined,
    jobs,
    publicUrl: config.publicUrl,
    tenantName: (id) => repos.documents.tenantName(id),
    logger: logger.child({ component: 'signatures' }),
  });
  return {
    repos,
    files,
    identity: deps.identity,
    documents: createDocumentsService({ repos, files, logger, pool: deps.pool }),
    requests: createSigningRequestsService({ repos, jobs, publicUrl: config.publicUrl }),
    signee: createSigneeService({ repos, files, jobs, signatures, pool: deps.pool }),
    signatures,
    verification: createVerificationService({ repos }),
  };
}
