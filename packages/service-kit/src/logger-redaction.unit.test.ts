import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { createLogger, redactUrl } from './logger';

function capturedLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger({ service: 'redaction-test', level: 'info', destination }), text: () => lines.join('') };
}

describe('what the logger writes', () => {
  it('leaves out personal data and credentials under their usual keys', () => {
    const { logger, text } = capturedLogger();
    logger.info({ email: 'ana@example.es', to: 'luis@example.es', signee_name: 'Ana García', ip: '203.0.113.9', password: 'hunter2', emailId: 'e-1' }, 'sent');
    logger.info({ job: { signeeEmail: 'eva@example.es', otp: '123456', token: 'pk_live_x' } }, 'job');
    const logged = text();
    expect(logged).not.toMatch(/ana@|luis@|eva@|García|203\.0\.113\.9|hunter2|123456|pk_live_x/);
    expect(logged).toContain('e-1');
  });

  it('logs a failed query without its parameters', () => {
    const { logger, text } = capturedLogger();
    const err = new DrizzleQueryError('insert into "t" ("email") values ($1)', ['ana@example.es'], new Error('invalid byte sequence for encoding "UTF8": 0x00'));
    logger.error({ err }, 'unhandled error');
    expect(text()).toContain('insert into');
    expect(text()).toContain('invalid byte sequence');
    expect(text()).not.toContain('ana@example.es');
  });

  it('masks link tokens and email addresses in request URLs, keeping ids', () => {
    expect(redactUrl('/firma/firmar/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdE/documento')).toBe('/firma/firmar/[redacted]/documento');
    expect(redactUrl('/firma/documentos/3f2a1b4c-1234-4abc-9def-0123456789ab')).toBe('/firma/documentos/3f2a1b4c-1234-4abc-9def-0123456789ab');
    expect(redactUrl('/x?email=ana%40example.es&status=signed')).toBe('/x?email=[redacted]&status=signed');
    expect(redactUrl('/x?q=ana@example.es')).toBe('/x?q=[email]');
  });
});
