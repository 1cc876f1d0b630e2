import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import request from 'supertest';
import { Redis } from 'ioredis';
import { eventually, linkOf, mailText, otpOf, samplePdf, startTestEsign, type TestEsign } from './support';

const run = promisify(execFile);

/**
 * Issue 27: nothing esign keeps in Postgres or Redis gives back a signing link's token or a
 * signing code. A complete flow runs against the real database and the BullMQ queue on the
 * real Redis, with real SMTP; the token and the code are taken from the emails received, then
 * the whole database is dumped with pg_dump and every key of the test's Redis prefix is read.
 */
describe('secrets at rest', () => {
  let env: TestEsign;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_secrets' });
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  const query = async <T>(sql: string, params: unknown[] = []) => (await env.rt.database.pool.query(sql, params)).rows as T[];

  /** The whole database as pg_dump writes it: plain format, schema and data. */
  async function pgDump(): Promise<string> {
    const { stdout } = await run('pg_dump', ['--format=plain', '--no-owner', '--dbname', env.db.url], { maxBuffer: 256 * 1024 * 1024 });
    expect(stdout).toContain('COPY public.email_outbox');
    return stdout;
  }

  /** The COPY data of one table in a dump. */
  function tableData(dump: string, table: string): string {
    const start = dump.indexOf(`COPY public.${table} `);
    expect(start).toBeGreaterThanOrEqual(0);
    return dump.slice(start, dump.indexOf('\n\\.\n', start));
  }

  /** Every key of the test's prefix (queue, rate limits) with its value, read by type. */
  async function redisDump(): Promise<{ key: string; value: string }[]> {
    const redis = new Redis('redis://127.0.0.1:6379');
    try {
      const out: { key: string; value: string }[] = [];
      for (const key of await redis.keys(`${env.prefix}*`)) {
        const type = await redis.type(key);
        // Gone between the listing and the read (a lock or a rate-limit window that expired, a job removed): it holds nothing.
        if (type === 'none') continue;
        const value =
          type === 'string' ? [String(await redis.get(key))]
          : type === 'hash' ? Object.entries(await redis.hgetall(key)).flat()
          : type === 'list' ? await redis.lrange(key, 0, -1)
          : type === 'set' ? await redis.smembers(key)
          : type === 'zset' ? await redis.zrange(key, 0, -1)
          : type === 'stream' ? (await redis.xrange(key, '-', '+')).flatMap(([id, fields]) => [id, ...fields])
          : [];
        expect(['string', 'hash', 'list', 'set', 'zset', 'stream']).toContain(type);
        out.push(...value.map((v) => ({ key, value: v })));
      }
      expect(out.length).toBeGreaterThan(0);
      return out;
    } finally {
      redis.disconnect();
    }
  }

  /** The signee's secrets (and email) that must appear nowhere at rest. */
  function expectNoSecrets(dump: string, redis: { key: string; value: string }[], s: { token: string; url: string; code: string; requestId: string; email: string }) {
    const unkeyedCodeHash = createHash('sha256').update(`${s.requestId}:${s.code}`).digest('hex');
    const found = (what: string, haystack: string, needle: string) => ({ what, found: haystack.includes(needle) });
    // The token anywhere (base64url, 43 characters: never there by chance), and the link.
    expect(found('token in pg_dump', dump, s.token)).toEqual({ what: 'token in pg_dump', found: false });
    expect(found('signing url in pg_dump', dump, s.url)).toEqual({ what: 'signing url in pg_dump', found: false });
    // The code where it used to be (the outbox rows), and as it sits in an email's text and HTML anywhere.
    expect(found('code in email_outbox', tableData(dump, 'email_outbox'), s.code)).toEqual({ what: 'code in email_outbox', found: false });
    for (const context of [`\\n${s.code}\\n`, `>${s.code}<`]) expect(found(`code as ${context}`, dump, context)).toEqual({ what: `code as ${context}`, found: false });
    // The unkeyed SHA-256 of the code (as earlier versions stored it, and of the code alone), which 10⁶ tries reverse.
    expect(found('unkeyed code hash in pg_dump', dump, unkeyedCodeHash)).toEqual({ what: 'unkeyed code hash in pg_dump', found: false });
    const bareCodeHash = createHash('sha256').update(s.code).digest('hex');
    expect(found('SHA-256 of the code in pg_dump', dump, bareCodeHash)).toEqual({ what: 'SHA-256 of the code in pg_dump', found: false });
    for (const { key, value } of redis) {
      for (const [what, needle] of [
        ['token', s.token],
        ['email', s.email],
        ['unkeyed code hash', unkeyedCodeHash],
      ] as const) {
        expect({ key, what, found: key.includes(needle) || value.includes(needle) }).toEqual({ key, what, found: false });
      }
      // A job payload or value holding the code would hold it as a JSON string or a whole value.
      expect({ key, code: value === s.code || value.includes(`"${s.code}"`) }).toEqual({ key, code: false });
    }
  }

  it('after a complete flow, pg_dump and the Redis keys hold no signing token, no code, no unkeyed code hash and no address in a job', async () => {
    const key = await env.keyFor('secrets');
    const email = 'sara.secret@example.test';
    const up = await api().post('/firma/documentos').set('authorization', key).field('title', 'Contrato reservado').attach('file', await samplePdf(), { filename: 'c.pdf', contentType: 'application/pdf' });
    expect(up.status).toBe(200);
    const created = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: email, signee_name: 'Sara' });
    expect(created.status).toBe(200);
    const requestId = created.body.request_id as string;
    const { url, token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    expect(url).toBe(created.body.signing_url);

    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => m.to.includes(email) && /digo para firmar/.test(mailText(m))));
    const secrets = { token, url, code, requestId, email };

    // Both emails are out and their rows marked sent; the code is still outstanding (its hash stored).
    await eventually(async () => {
      const rows = await query<{ status: string }>('select status from email_outbox where request_id = $1', [requestId]);
      return rows.length === 2 && rows.every((r) => r.status === 'sent') ? rows : undefined;
    });
    const [stored] = await query<{ otp_hash: string | null; token_hash: string }>('select otp_hash, token_hash from signing_requests where id = $1', [requestId]);
    expect(stored!.otp_hash).not.toBeNull();
    expect(stored!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    // The token reminders email again is kept only sealed under the at-rest key (the dump below finds it nowhere in clear).
    const [sealed] = await query<{ sealed_token: Buffer | null }>('select sealed_token from signing_requests where id = $1', [requestId]);
    expect(sealed!.sealed_token).not.toBeNull();
    expectNoSecrets(await pgDump(), await redisDump(), secrets);
    // What stays of a sent message: its address, subject and status for the audit; no body.
    const outbox = await query<{ to_address: string; sealed_body: Buffer | null; text_body: string | null; html_body: string | null }>(
      'select to_address, sealed_body, text_body, html_body from email_outbox where request_id = $1',
      [requestId],
    );
    expect(outbox.map((r) => ({ to: r.to_address, sealed: r.sealed_body, text: r.text_body, html: r.html_body }))).toEqual([
      { to: email, sealed: null, text: null, html: null },
      { to: email, sealed: null, text: null, html: null },
    ]);

    // The stored code still works (keyed hash, constant-time compare), once.
    await api().post(`/firma/firmar/${token}/confirmar`).send({ code, declaration_accepted: true }).expect(200);
    expect((await api().post(`/firma/firmar/${token}/confirmar`).send({ code, declaration_accepted: true })).status).toBe(409);
    // Signed: the sealed copy of the token is wiped (no reminder is owed any more).
    expect((await query<{ sealed_token: Buffer | null }>('select sealed_token from signing_requests where id = $1', [requestId]))[0]!.sealed_token).toBeNull();
    await eventually(async () => ((await api().get(`/firma/documentos/${up.body.document_id}`).set('authorization', key)).body.final_sha256 ? true : undefined));
    expectNoSecrets(await pgDump(), await redisDump(), secrets);
  });

  it('keeps a queued message encrypted (no body in clear) until it is sent, then keeps no body at all', async () => {
    const marker = `link-${'q'.repeat(10)}-https://firma.example.test/firma/firmar/${'Z'.repeat(43)}`;
    const emailId = await env.rt.mail.queue({ to: 'queued.secret@example.test', subject: 'Queued', text: `Your link: ${marker}`, html: `<p>${marker}</p>`, kind: 'signing_link' });
    // The whole row as stored (bytea as hex): neither the link nor the text around it.
    const [whole] = await query<{ j: string }>('select row_to_json(t)::text as j from email_outbox t where id = $1', [emailId]);
    expect(whole!.j).not.toContain('ZZZZZZZZZZ');
    expect(whole!.j).not.toContain('Your link');
    const [queued] = await query<{ status: string; sealed_body: Buffer | null; text_body: string | null; html_body: string | null }>(
      'select status, sealed_body, text_body, html_body from email_outbox where id = $1',
      [emailId],
    );
    expect(queued!.status).toBe('queued');
    expect({ text: queued!.text_body, html: queued!.html_body }).toEqual({ text: null, html: null });
    expect(queued!.sealed_body).toBeInstanceOf(Buffer);
    expect(tableData(await pgDump(), 'email_outbox')).not.toContain('ZZZZZZZZZZ');

    await env.rt.jobs.queue.enqueue('email.send', { emailId });
    const mail = await env.smtp.waitFor((m) => m.to.includes('queued.secret@example.test'));
    expect(mailText(mail)).toContain(marker);
    const [sent] = await eventually(async () => {
      const rows = await query<{ status: string; sealed_body: Buffer | null; text_body: string | null }>('select status, sealed_body, text_body from email_outbox where id = $1', [emailId]);
      return rows[0]?.status === 'sent' ? rows : undefined;
    });
    expect({ sealed: sent!.sealed_body, text: sent!.text_body }).toEqual({ sealed: null, text: null });
  });

  it('does not send a queued message whose address was changed in the database, and wipes its body when it gives up', async () => {
    const emailId = await env.rt.mail.queue({ to: 'rita.redirect@example.test', subject: 'Redirected', text: 'https://firma.example.test/firma/firmar/x' });
    await query("update email_outbox set to_address = 'mallory@example.test' where id = $1", [emailId]);
    const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
    // The last attempt of the job (as the queue runs it after its retries).
    await expect(env.rt.mail.deliver(emailId, { attempt: 8, logger })).rejects.toThrow(/does not open/);
    const [row] = await query<{ status: string; sealed_body: Buffer | null; last_error: string }>('select status, sealed_body, last_error from email_outbox where id = $1', [emailId]);
    expect({ status: row!.status, sealed: row!.sealed_body }).toEqual({ status: 'failed', sealed: null });
    expect(row!.last_error).not.toContain('mallory');
    expect(env.smtp.messages.some((m) => m.to.includes('mallory@example.test'))).toBe(false);
  });

  it('sends a message queued in clear by an earlier version as it is, then wipes it', async () => {
    const [{ id }] = (await query<{ id: string }>(
      "insert into email_outbox (to_address, subject, text_body, html_body, kind) values ('olga.old@example.test', 'Old', 'Old link https://firma.example.test/firma/firmar/old', null, 'signing_link') returning id",
    )) as [{ id: string }];
    await env.rt.jobs.queue.enqueue('email.send', { emailId: id });
    expect(mailText(await env.smtp.waitFor((m) => m.to.includes('olga.old@example.test')))).toContain('/firma/firmar/old');
    const [sent] = await eventually(async () => {
      const rows = await query<{ status: string; text_body: string | null }>('select status, text_body from email_outbox where id = $1', [id]);
      return rows[0]?.status === 'sent' ? rows : undefined;
    });
    expect(sent!.text_body).toBeNull();
  });

  it('stores codes as a keyed hash: a code stored before the upgrade (unkeyed SHA-256) reads as expired and costs no attempt', async () => {
    const key = await env.keyFor('secrets-legacy');
    const email = 'leo.legacy@example.test';
    const up = await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'l.pdf', contentType: 'application/pdf' });
    const created = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: email });
    const requestId = created.body.request_id as string;
    const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => m.to.includes(email) && /digo para firmar/.test(mailText(m))));

    // The stored value is not the unkeyed hash of earlier versions, and does not depend on the code alone.
    const [row] = await query<{ otp_hash: string }>('select otp_hash from signing_requests where id = $1', [requestId]);
    const unkeyed = createHash('sha256').update(`${requestId}:${code}`).digest('hex');
    expect(row!.otp_hash).not.toContain(unkeyed);

    // As an earlier version stored it: the right code no longer signs, and counts no wrong attempt.
    await query('update signing_requests set otp_hash = $2 where id = $1', [requestId, unkeyed]);
    const legacy = await api().post(`/firma/firmar/${token}/confirmar`).send({ code, declaration_accepted: true });
    expect({ status: legacy.status, code: legacy.body.code }).toEqual({ status: 400, code: 'OTP_EXPIRED' });
    const [after] = await query<{ otp_failed_attempts: number; status: string }>('select otp_failed_attempts, status from signing_requests where id = $1', [requestId]);
    expect(after).toEqual({ otp_failed_attempts: 0, status: 'pending' });

    // A new code signs.
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const fresh = await eventually(async () => {
      const codes = env.smtp.messages.filter((m) => m.to.includes(email) && /digo para firmar/.test(mailText(m))).map(otpOf);
      return codes.length === 2 ? codes[1] : undefined;
    });
    await api().post(`/firma/firmar/${token}/confirmar`).send({ code: fresh, declaration_accepted: true }).expect(200);
  });
});
