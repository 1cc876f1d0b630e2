import express from 'express';
import request from 'supertest';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { DatabaseError } from 'pg';
import { createErrorHandler, esignEnvelope, logSafeError, requestId } from './index';

/** What pg and drizzle hand back when Postgres refuses an insert of personal data. */
function failedInsert(): Error {
  const pgError = new DatabaseError('duplicate key value violates unique constraint "signing_requests_email_key"', 120, 'error');
  Object.assign(pgError, { code: '23505', severity: 'ERROR', table: 'signing_requests', constraint: 'signing_requests_email_key', detail: 'Key (signee_email)=(ana.garcia@example.es) already exists.', where: 'Ana García' });
  return new DrizzleQueryError('insert into "signing_requests" ("signee_email", "signee_name") values ($1, $2)', ['ana.garcia@example.es', 'Ana García'], pgError);
}

describe('errors bound for the logs', () => {
  it('keep the SQL and the database diagnosis but not the parameters, detail or where', () => {
    const logged = JSON.stringify(logSafeError(failedInsert()));
    expect(logged).toContain('insert into \\"signing_requests\\"');
    expect(logged).toContain('23505');
    expect(logged).toContain('signing_requests_email_key');
    expect(logged).not.toContain('ana.garcia');
    expect(logged).not.toContain('García');
  });

  it('mask email addresses in messages and in plain strings', () => {
    const rejected = new Error("Can't send mail - all recipients were rejected: 550 <ana.garcia@example.es>: unknown");
    expect(JSON.stringify(logSafeError(rejected))).not.toContain('ana.garcia@example.es');
    expect(logSafeError('recipient luis@example.es refused')).toBe('recipient [email] refused');
  });

  it('reach the error handler’s log of an unknown error without the parameters', async () => {
    const logged: object[] = [];
    const app = express();
    app.use(requestId());
    app.get('/boom', () => {
      throw failedInsert();
    });
    app.use(createErrorHandler(esignEnvelope, { error: (obj) => logged.push(obj) }));
    const res = await request(app).get('/boom');
    expect(res.status).toBe(500);
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(logged)).not.toMatch(/ana\.garcia|García/);
  });
});
