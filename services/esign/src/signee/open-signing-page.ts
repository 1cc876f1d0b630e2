import type { ExtractedText, PdfWorkerPool } from '@firma-riesgo/pdf-core';
import type { Logger } from '@firma-riesgo/service-kit';
import { ipClient, type ClientInfo } from '../audit/client';
import type { Sender } from '../branding/service';
import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentRecord } from '../documents/repository';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import type { SigningRequestRow, SigningRequestsRepository } from '../signing-requests/repository';
import { effectiveStatus, otpState, WAITING, waitingFor } from '../signing-requests/rules';
import { storageKeys, type FileStore } from '../storage/file-store';
import type { ErasedMeanwhile } from './erased-meanwhile';
import type { LinkLoader } from './link';

/** The document text shown under the page images: the pages the page shows, 200,000 characters at most. */
export const TEXT_MAX_PAGES = 100;
export const TEXT_MAX_CHARS = 200_000;

export interface SigningContext {
  request: SigningRequestRow;
  document: DocumentRecord;
  tenant: string;
  status: SigningRequestRow['status'];
  /** Requests of a lower order not done yet (rules.ts `waitingFor`): what a `waiting` link's page says. */
  waitingFor: number;
  /** Whether a code was sent and is still usable. */
  otpOutstanding: boolean;
  /** The tenant's logo and accent colour, when it has set them. */
  brand: { logoPath: string | null; accentColor: string | null };
  /** The text of each page, for screen readers and copying; null when it cannot be read. */
  text: ExtractedText | null;
  /** The tenant's origins allowed to frame the page (embed.ts); empty: none. */
  embedOrigins: readonly string[];
}

/** Opening the page records `link_opened` under the request's lock. */
export type OpenSigningPageRepos = UnitOfWork<SigningEventRepos & { requests: Pick<SigningRequestsRepository, 'lockByTokenHash' | 'listForDocument'> }>;

/** The signing page's data; records `link_opened` while the request can still be signed. */
export function createOpenSigningPage(deps: {
  repos: OpenSigningPageRepos;
  link: LinkLoader;
  sender: (tenantId: string) => Promise<Sender>;
  /** The tenant's `embed_origins` (tenant settings), read beside the sender. */
  embedOrigins: (tenantId: string) => Promise<readonly string[]>;
  files: FileStore;
  /** Worker threads that read the document's text. */
  pool: Pick<PdfWorkerPool, 'run'>;
  erasedMeanwhile: ErasedMeanwhile;
  record: RecordSigningEvents;
  logger: Logger;
  clock: () => Date;
}) {
  const { repos, files, clock } = deps;

  /**
   * The document's text, read once on a worker thread and kept with its files (a cache,
   * erased with them). A PDF whose text cannot be read still shows its pages.
   */
  async function documentText(document: DocumentRecord, client: ClientInfo): Promise<ExtractedText | null> {
    const key = storageKeys.pageText(document.id);
    const cached = await files.read(key);
    if (cached) return JSON.parse(cached.toString('utf8')) as ExtractedText;
    const original = await files.read(storageKeys.original(document.id));
    if (!original) return null;
    try {
      const text = await deps.pool.run('extract-text', { pdf: original, maxPages: TEXT_MAX_PAGES, maxChars: TEXT_MAX_CHARS }, { timeoutMs: 20_000, client: ipClient(client) });
      await files.write(key, Buffer.from(JSON.stringify(text)));
      if (await deps.erasedMeanwhile(document.id)) return null;
      return text;
    } catch (err) {
      deps.logger.warn({ err, documentId: document.id }, 'could not read the text of a document for its signing page');
      return null;
    }
  }

  return async function openSigningPage(token: string, client: ClientInfo): Promise<SigningContext> {
    const { request, document } = await deps.link.load(token);
    const now = clock();
    const status = effectiveStatus(request, now);
    if (status === 'pending' && !request.lockedAt) {
      // Under the request's lock, re-read: an erasure in between leaves it cancelled, and no address is written.
      await repos.transaction(async (tx) => {
        const current = await tx.requests.lockByTokenHash(request.tokenHash);
        if (current && effectiveStatus(current, now) === 'pending' && !current.lockedAt) await deps.record(tx, { kind: 'link_opened', at: clock(), request: current, document, client });
      });
    }
    const [sender, embedOrigins] = await Promise.all([deps.sender(request.tenantId), deps.embedOrigins(request.tenantId)]);
    return {
      request,
      document,
      tenant: sender.name,
      brand: { logoPath: sender.logoPath, accentColor: sender.accentColor },
      status,
      waitingFor: status === WAITING ? waitingFor(request, await repos.requests.listForDocument(request.documentId)) : 0,
      otpOutstanding: otpState(request, now) === 'valid',
      embedOrigins,
      text: status === 'pending' && !request.lockedAt && !document.erasedAt ? await documentText(document, client) : null,
    };
  };
}
