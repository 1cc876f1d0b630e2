import { ConfigError } from '@firma-riesgo/service-kit';
import { loadConfig } from './config';

describe('esign configuration', () => {
  it('runs on embedded defaults with no variables at all', () => {
    const config = loadConfig({ INIT_CWD: '/srv/app' });
    expect(config).toMatchObject({
      port: 8001,
      host: '0.0.0.0',
      databaseUrl: undefined,
      redisUrl: undefined,
      dataDir: '/srv/app/data',
      mailDir: '/srv/app/data/mail',
      publicUrl: 'http://localhost:8001',
      maxUploadBytes: 25 * 1024 * 1024,
      demoKey: true,
    });
  });

  it('fails fast naming every bad variable', () => {
    let error: unknown;
    try {
      loadConfig({ ESIGN_PORT: 'eighty', REDIS_URL: 'http://not-redis', WEBHOOK_ALLOW_PRIVATE: 'maybe' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('ESIGN_PORT');
    expect(message).toContain('REDIS_URL');
    expect(message).toContain('WEBHOOK_ALLOW_PRIVATE');
  });

  it('never creates a demo key against a real database', () => {
    expect(loadConfig({ ESIGN_DATABASE_URL: 'postgres://db/esign' }).demoKey).toBe(false);
  });

  it('treats empty values as unset and strips a trailing slash from the public URL', () => {
    const config = loadConfig({ ESIGN_PORT: '', ESIGN_PUBLIC_URL: 'https://firma.example.es/' });
    expect(config.port).toBe(8001);
    expect(config.publicUrl).toBe('https://firma.example.es');
  });
});
