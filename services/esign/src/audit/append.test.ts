import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { signingTables, testConfig } from '../__tests__/support';
import { startEsign, type EsignRuntime } from '../runtime';

/**
 * Appends of one to three events run a query built once per row count; more go through
 * drizzle's builder. Either way the rows land in order, and a field left out is SQL NULL
 * (a JSON `null` in `details` would not be).
 */
describe('audit append', () => {
  let db: TestDatabase;
  let rt: EsignRuntime;

  beforeAll(async () => {
    db = await createTestDatabase('esign_audit_append');
    rt = await startEsign(testConfig({ ESIGN_DATABASE_URL: db.url }), 'cli');
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  it('stores every event in order, with absent fields as SQL NULL, for 1, 2 and 5 events at once', async () => {
    const tenantId = (await rt.keys.create({ tenant: 'audit-append' })).record.tenantId;
    const documentId = randomUUID();
    await signingTables(rt).documents.insert({ id: documentId, tenantId, filename: 'a.pdf', title: null, pages: 1, sizeBytes: 1, sha256: 'x'.repeat(64) });
    const { audit } = signingTables(rt);
    const base = { documentId, tenantId, documentSha256: 'x'.repeat(64) };
    const at = new Date('2026-11-24T12:00:00.123Z');
    await audit.append({ ...base, kind: 'link_opened' });
    await audit.append({ ...base, kind: 'otp_verified', occurredAt: at, ip: '127.0.0.1', email: 'e@example.test' }, { ...base, kind: 'signed', occurredAt: at, details: { declaration_accepted: true, signature_image: null } });
    await audit.append(...Array.from({ length: 5 }, () => ({ ...base, kind: 'sealed' as const, occurredAt: at })));
    const { rows } = await rt.database.pool.query(
      'select kind, occurred_at, request_id, ip, email, details is null as no_details, details from audit_events where document_id = $1 order by id',
      [documentId],
    );
    expect(rows.map((r) => r.kind)).toEqual(['link_opened', 'otp_verified', 'signed', 'sealed', 'sealed', 'sealed', 'sealed', 'sealed']);
    expect(rows[1]).toMatchObject({ occurred_at: at, request_id: null, ip: '127.0.0.1', email: 'e@example.test', no_details: true });
    expect(rows[2]).toMatchObject({ no_details: false, details: { declaration_accepted: true, signature_image: null } });
    expect(rows.filter((r) => r.kind !== 'signed').every((r) => r.no_details && r.ip === (r.kind === 'otp_verified' ? '127.0.0.1' : null))).toBe(true);
  });
});
