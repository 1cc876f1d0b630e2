import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { meterDay } from '../../metering/day';
import { createSigningEventRecorder } from '../../signing-events/record-event';
import { createOtpCodes } from '../../signing-requests/otp-code';
import { createLinkSealer } from '../../signing-requests/sealed-link';
import { createSigneeService, type SigneeDeps } from '../../signee/service';
import { createFileStore } from '@firma-riesgo/service-kit';
import { createFakeDocumentsRepository } from './fake-documents-repository';
import { createFakeAuditRepository, createFakeMeterRepository, createFakeWebhookEventsRepository } from './fake-event-repositories';
import { createFakeMailRepository } from './fake-mail-repository';
import { createFakeSigningRequestsRepository } from './fake-signing-requests-repository';
import { createFakeTables, type FakeTables } from './fake-tables';
import { createFakeUnitOfWork } from './fake-unit-of-work';

/** What a test built from fakes can look at besides the service: the tables, and the jobs enqueued. */
export interface SigneeFakes {
  tables: FakeTables;
  repos: SigneeDeps['repos'];
  enqueued: { name: string; payload: unknown }[];
}

/**
 * The signee service (signee/service.ts) on fakes: the fake repositories in a fake unit
 * of work, the real event recorder and code HMAC, files in a temporary folder, and no
 * worker pool, seal or webhook delivery (the seal leaves the request `sealing`, as when
 * the inline seal is put off to its job). `clock` is the service's time.
 */
export function signeeServiceFromFakes(clock: () => Date) {
  const tables = createFakeTables();
  const repos = createFakeUnitOfWork(tables, {
    requests: createFakeSigningRequestsRepository(tables),
    documents: createFakeDocumentsRepository(tables),
    audit: createFakeAuditRepository(tables),
    outbox: createFakeMailRepository(tables),
    webhookEvents: createFakeWebhookEventsRepository(tables),
    meter: createFakeMeterRepository(tables),
  });
  const enqueued: SigneeFakes['enqueued'] = [];
  const links = createLinkSealer(randomBytes(32));
  const service = createSigneeService({
    repos,
    sender: async () => ({ name: 'Ayuntamiento de Prueba', accentColor: null, logoUrl: null, logoPath: null }),
    notifyEmail: async () => null,
    embedOrigins: async () => [],
    publicUrl: 'https://firma.example.test',
    links,
    files: createFileStore(mkdtempSync(join(tmpdir(), 'esign-unit-'))),
    jobs: {
      enqueue: async (name, payload) => {
        enqueued.push({ name, payload });
        return { id: String(enqueued.length) };
      },
    } as SigneeDeps['jobs'],
    signatures: { awaitSeal: async () => null },
    webhooks: { dispatch: async () => undefined } as unknown as SigneeDeps['webhooks'],
    pool: { run: () => Promise.reject(new Error('no worker pool in a unit test')) } as SigneeDeps['pool'],
    record: createSigningEventRecorder({ meterDay: (at) => meterDay(at, 'Europe/Madrid') }),
    signatureLevel: 'B-B',
    logger: pino({ level: 'silent' }),
    otp: createOtpCodes(randomBytes(32)),
    clock,
  });
  return { service, links, fakes: { tables, repos, enqueued } satisfies SigneeFakes };
}
