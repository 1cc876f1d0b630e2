import { redactQueryCredentials } from './logger';

describe('request log redaction', () => {
  it('masks credential-like query parameters and keeps the rest of the URL', () => {
    expect(redactQueryCredentials('/api/v3/m1?municipio_id=28079&token=pk_live_abc&x=1')).toBe(
      '/api/v3/m1?municipio_id=28079&token=[redacted]&x=1',
    );
    expect(redactQueryCredentials('/a?API_KEY=secret')).toBe('/a?API_KEY=[redacted]');
    expect(redactQueryCredentials('/firma/firmar/abc?otp=123456')).toBe('/firma/firmar/abc?otp=[redacted]');
  });

  it('leaves URLs without credentials untouched', () => {
    expect(redactQueryCredentials('/health?verbose=1&monkey=2')).toBe('/health?verbose=1&monkey=2');
  });
});
