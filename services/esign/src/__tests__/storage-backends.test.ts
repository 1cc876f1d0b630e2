import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import request from 'supertest';
import { startTestS3Server, type TestS3Server } from '@firma-riesgo/service-kit/testing';
import { eventually, linkOf, mailText, otpOf, samplePdf, startTestEsign, type TestEsign } from './support';

/**
 * The whole document life (upload, signing page images, OTP, typed signature, seals,
 * downloads) with ESIGN_STORAGE=postgres and s3; and erasure, of one document and of a
 * tenant, leaving no blob of theirs in the backend. (Local files: erasure-and-isolation.test.ts.)
 */
interface BackendView {
  env: Record<string, string>;
  /** Every stored key (without the service prefix) under `prefix/`. */
  keysUnder(prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

const backends: [string, (esign: () => TestEsign) => Promise<BackendView>][] = [
  [
    'postgres',
    async (esign) => ({
      env: { ESIGN_STORAGE: 'postgres', SIGNING_IDENTITY_KEY: Buffer.alloc(32, 1).toString('base64') },
      async keysUnder(prefix) {
        const pool = esign().rt.database.pool;
        const { rows } = await pool.query<{ key: string }>('select key from blobs where key like $1 order by key', [`${prefix}/%`]);
        // Chunks of no blob would be bytes erasure missed.
        const orphans = await pool.query<{ n: number }>('select count(*)::int as n from blob_chunks where version not in (select version from blobs)');
        expect(orphans.rows[0]!.n).toBe(0);
        return rows.map((row) => row.key);
      },
      close: async () => undefined,
    }),
  ],
  [
    's3',
    async () => {
      const server: TestS3Server = await startTestS3Server('esign-blobs');
      const { settings } = server;
      const client = new S3Client({ endpoint: settings.endpoint, region: settings.region, forcePathStyle: true, credentials: { accessKeyId: settings.accessKeyId!, secretAccessKey: settings.secretAccessKey! } });
      return {
        env: {
          ESIGN_STORAGE: 's3',
          SIGNING_IDENTITY_KEY: Buffer.alloc(32, 1).toString('base64'),
          S3_ENDPOINT: settings.endpoint!,
          S3_BUCKET: settings.bucket,
          S3_REGION: settings.region,
          S3_ACCESS_KEY_ID: settings.accessKeyId!,
          S3_SECRET_ACCESS_KEY: settings.secretAccessKey!,
          S3_FORCE_PATH_STYLE: 'true',
        },
        async keysUnder(prefix) {
          const listed = await client.send(new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: `esign/${prefix}/` }));
          return (listed.Contents ?? []).map((object) => object.Key!.slice('esign/'.length)).sort();
        },
        async close() {
          client.destroy();
          await server.close();
        },
      };
    },
  ],
];

describe.each(backends)('esign with ESIGN_STORAGE=%s', (_kind, openBackend) => {
  let env: TestEsign;
  let backend: BackendView;

  beforeAll(async () => {
    backend = await openBackend(() => env);
    env = await startTestEsign({ name: `esign_storage_${_kind}`, env: backend.env });
  });

  afterAll(async () => {
    await env?.close();
    await backend?.close();
  });

  const api = () => request(env.rt.server!);
  const binary = (req: request.Test) => req.buffer(true).parse((res, done) => {
    const parts: Buffer[] = [];
    res.on('data', (part: Buffer) => parts.push(part));
    res.on('end', () => done(null, Buffer.concat(parts)));
  });

  async function upload(key: string, title: string) {
    const pdf = await samplePdf({ pages: 2, title });
    const up = await api().post('/firma/documentos').set('authorization', key).field('title', title).attach('file', pdf, { filename: 'd.pdf', contentType: 'application/pdf' });
    expect(up.status).toBe(200);
    return { documentId: up.body.document_id as string, pdf };
  }

  async function sign(key: string, documentId: string, email: string) {
    const created = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: documentId, signee_email: email, signee_name: 'Ana Pez' });
    expect(created.status).toBe(200);
    const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    await binary(api().get(`/firma/firmar/${token}/paginas/1?ancho=480`)).expect(200);
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => m.to.includes(email) && /digo para firmar/.test(mailText(m))));
    await api().post(`/firma/firmar/${token}/confirmar`).type('form').send({ otp_code: code, declaration_accepted: 'true', firma_nombre: 'Ana Pez' }).expect(200);
    await eventually(async () => ((await api().get(`/firma/documentos/${documentId}`).set('authorization', key)).body.final_sha256 ? true : undefined));
    return created.body.request_id as string;
  }

  it('keeps every file of a signed document in the backend, none on the local disk, and serves them back', async () => {
    const key = await env.keyFor('storage-life');
    const { documentId, pdf } = await upload(key, 'Vida completa');
    const requestId = await sign(key, documentId, 'life@example.test');

    const keys = await backend.keysUnder(`documents/${documentId}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        `documents/${documentId}/original.pdf`,
        `documents/${documentId}/final.pdf`,
        `documents/${documentId}/requests/${requestId}.signed.pdf`,
        `documents/${documentId}/pages/1-480.png`,
      ]),
    );
    expect(keys.some((k) => new RegExp(`^documents/${documentId}/requests/${requestId}\\.[0-9a-f]{8}\\.png$`).test(k))).toBe(true);
    expect(existsSync(join(env.dataDir, 'esign', 'files'))).toBe(false);

    expect((await env.rt.signing.files.read(`documents/${documentId}/original.pdf`))?.equals(pdf)).toBe(true);
    const final = await binary(api().get(`/firma/documentos/${documentId}/final-pdf`).set('authorization', key));
    expect(final.status).toBe(200);
    expect(final.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const signed = await binary(api().get(`/firma/documentos/${documentId}/signed-pdf`).set('authorization', key));
    expect(signed.status).toBe(200);
    expect(signed.body.length).toBeGreaterThan(pdf.length);
  });

  it('erases a document: no blob of it is left, and other documents keep theirs', async () => {
    const key = await env.keyFor('storage-erase');
    const { documentId } = await upload(key, 'Para suprimir');
    await sign(key, documentId, 'erase@example.test');
    const { documentId: sibling } = await upload(key, 'Se queda');
    expect((await backend.keysUnder(`documents/${documentId}`)).length).toBeGreaterThanOrEqual(5);

    await api().delete(`/firma/documentos/${documentId}`).set('authorization', key).expect(200);
    expect(await backend.keysUnder(`documents/${documentId}`)).toEqual([]);
    expect(await backend.keysUnder(`documents/${sibling}`)).toEqual([`documents/${sibling}/original.pdf`]);
  });

  it("erases a tenant: none of its documents' blobs are left, another tenant's stay", async () => {
    const admin = await env.keyFor('storage-root', 'superadmin');
    const key = await env.keyFor('storage-gone');
    const other = await env.keyFor('storage-stays');
    const first = await upload(key, 'Uno');
    await sign(key, first.documentId, 'tenant.erase@example.test');
    const second = await upload(key, 'Dos');
    const kept = await upload(other, 'Otro inquilino');

    const erased = await api().delete('/admin/tenants/storage-gone/data').set('authorization', admin);
    expect(erased.status).toBe(200);
    expect(erased.body).toEqual({ tenant: 'storage-gone', deleted_documents: 2 });
    expect(await backend.keysUnder(`documents/${first.documentId}`)).toEqual([]);
    expect(await backend.keysUnder(`documents/${second.documentId}`)).toEqual([]);
    expect(await backend.keysUnder(`documents/${kept.documentId}`)).toEqual([`documents/${kept.documentId}/original.pdf`]);
  });
});
