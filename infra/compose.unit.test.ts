/**
 * docker-compose.yml, read as data (no docker needed): the replicas the gateway balances
 * over are the API services the file defines, the services keep no files on a volume of
 * their own, and the `s3` profile is opt-in. `docker compose config` validates the file
 * against the Compose specification where Compose v2 is installed (docs/deploy.md); this
 * test checks what the specification cannot: that the pieces agree with each other.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const ROOT = join(__dirname, '..');

interface Service {
  profiles?: string[];
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string; required?: boolean }>;
}

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const names = Object.keys(services);
const template = readFileSync(join(ROOT, 'infra', 'gateway', 'default.conf.template'), 'utf8');

describe('docker-compose.yml', () => {
  test.each([
    ['esign', 'ESIGN_UPSTREAMS', 8001],
    ['wildfire', 'WILDFIRE_UPSTREAMS', 8002],
  ] as const)('the gateway balances over every %s API replica, and there are two', (svc, variable, port) => {
    const replicas = names.filter((n) => services[n]!.command?.join(' ') === `node services/${svc}/dist/api.js`);
    expect(replicas.sort()).toEqual([`${svc}-api-1`, `${svc}-api-2`]);
    const listed = services.gateway!.environment![variable]!.split(/[\s,]+/).filter(Boolean);
    expect(listed.sort()).toEqual(replicas.map((r) => `${r}:${port}`));
    // nginx resolves the names once, at start: it waits for (and restarts with) each replica.
    for (const r of replicas) expect(services.gateway!.depends_on![r]).toMatchObject({ condition: 'service_healthy' });
  });

  test('the gateway mounts the script that makes the server lines, and envsubst may replace exactly the template placeholders', () => {
    const gateway = services.gateway!;
    expect(gateway.volumes).toContain('./infra/gateway/upstream-servers.envsh:/docker-entrypoint.d/18-upstream-servers.envsh:ro');
    const placeholders = [...new Set([...template.matchAll(/\$\{([A-Z][A-Z0-9_]*)\}/g)].map((m) => m[1]))].sort();
    // `$$` in compose is a literal `$`.
    const filter = new RegExp(gateway.environment!.NGINX_ENVSUBST_FILTER!.replace(/\$\$/g, '$'));
    for (const p of placeholders) expect(p).toMatch(filter);
    expect('ESIGN_UPSTREAMS').not.toMatch(filter);
  });

  test('the services trust the gateway alone, and the gateway trusts only the hops the operator names', () => {
    const gateway = services.gateway!;
    expect(gateway.volumes).toContain('./infra/gateway/trusted-proxies.envsh:/docker-entrypoint.d/19-trusted-proxies.envsh:ro');
    // Nothing is in front of the compose gateway unless the operator says so.
    expect(gateway.environment!.GATEWAY_TRUSTED_PROXIES).toBe('${GATEWAY_TRUSTED_PROXIES:-}');
    for (const n of names.filter((x) => /^(esign|wildfire)-/.test(x))) {
      expect({ n, trusted: services[n]!.environment!.TRUSTED_PROXIES }).toEqual({ n, trusted: '${GATEWAY_IP:-172.29.80.10}/32' });
    }
  });

  test('blobs are in Postgres by default; no service mounts a data volume', () => {
    for (const n of names.filter((x) => /^(esign|wildfire)-/.test(x))) {
      const env = services[n]!.environment!;
      const storage = n.startsWith('esign') ? env.ESIGN_STORAGE : env.WILDFIRE_STORAGE;
      expect({ n, storage }).toEqual({ n, storage: n.startsWith('esign') ? '${ESIGN_STORAGE:-postgres}' : '${WILDFIRE_STORAGE:-postgres}' });
      expect({ n, volumes: services[n]!.volumes }).toEqual({ n, volumes: undefined });
    }
  });

  test('every esign container requires SIGNING_IDENTITY_KEY (shared storage without a P12 needs it to start)', () => {
    for (const n of names.filter((x) => x.startsWith('esign-'))) {
      expect({ n, key: services[n]!.environment!.SIGNING_IDENTITY_KEY }).toEqual({ n, key: expect.stringMatching(/^\$\{SIGNING_IDENTITY_KEY:\?.+\}$/) });
    }
  });

  test('MinIO and the bucket init run only with --profile s3, and the APIs wait for the bucket when they do', () => {
    expect(services.minio!.profiles).toEqual(['s3']);
    expect(services['minio-init']!.profiles).toEqual(['s3']);
    for (const n of ['esign-api-1', 'esign-api-2', 'wildfire-api-1', 'wildfire-api-2']) {
      expect(services[n]!.depends_on!['minio-init']).toEqual({ condition: 'service_completed_successfully', required: false });
      expect(services[n]!.environment!.S3_ENDPOINT).toBe('${S3_ENDPOINT:-http://minio:9000}');
    }
    const unprofiled = names.filter((n) => !services[n]!.profiles);
    expect(unprofiled).not.toContain('minio');
  });
});
