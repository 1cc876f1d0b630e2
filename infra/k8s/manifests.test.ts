/**
 * The example Kubernetes manifests in infra/k8s/ are valid Kubernetes objects: each is
 * checked offline by validate-manifests.mjs against the API schemas and TypeScript
 * interfaces of the npm package `kubernetes-models` (run as a child process: the package
 * is ES modules only). The negative cases prove the check fails on a misspelt field, a
 * wrong type and an unknown kind. Then what docs/deploy.md promises of them, and that the
 * example Secrets, copied as they are, stop both services at start-up.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ConfigError, PLACEHOLDER_VALUE } from '@firma-riesgo/service-kit';
import { loadConfig as loadEsignConfig } from '../../services/esign/src/config';
import { loadConfig as loadWildfireConfig } from '../../services/wildfire/src/config';

const DIR = __dirname;
const VALIDATOR = path.join(DIR, 'validate-manifests.mjs');
const MANIFESTS = fs.readdirSync(DIR).filter((f) => f.endsWith('.yaml')).sort().map((f) => path.join(DIR, f));

jest.setTimeout(120_000);

interface DocResult {
  file: string;
  index: number;
  kind?: string;
  name?: string;
  errors: string[];
}

function validate(files: string[]): { status: number | null; docs: DocResult[]; stderr: string } {
  const res = spawnSync(process.execPath, [VALIDATOR, ...files], { encoding: 'utf8', timeout: 90_000 });
  const docs = res.stdout.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as DocResult);
  return { status: res.status, docs, stderr: res.stderr };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const objects: any[] = MANIFESTS.flatMap((f) => parseAllDocuments(fs.readFileSync(f, 'utf8')).map((d) => d.toJS()));
const byName = (kind: string, name: string) => {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name} in infra/k8s`);
  return o;
};

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'k8s-manifests-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** esign.yaml with one edit applied to its text: the negative cases start from the real file. */
function brokenCopy(name: string, edit: (text: string) => string): string {
  const original = fs.readFileSync(path.join(DIR, 'esign.yaml'), 'utf8');
  const broken = edit(original);
  expect(broken).not.toBe(original);
  const file = path.join(tmp, name);
  fs.writeFileSync(file, broken);
  return file;
}

describe('infra/k8s manifests against the Kubernetes schemas', () => {
  test('every document of every manifest is valid', () => {
    const { status, docs, stderr } = validate(MANIFESTS);
    expect(docs.filter((d) => d.errors.length)).toEqual([]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(docs).toHaveLength(objects.length);
    expect(docs.length).toBeGreaterThanOrEqual(15);
  });

  const broken: [string, string, (t: string) => string, RegExp][] = [
    ['a misspelt container field', 'typo.yaml', (t) => t.replace('livenessProbe:', 'livenessprobe:'), /'"livenessprobe"' does not exist in type 'IContainer'/],
    ['a wrong type', 'type.yaml', (t) => t.replace('replicas: 2', 'replicas: two'), /replicas must be integer/],
    ['an unknown field in a Deployment spec', 'unknown.yaml', (t) => t.replace('  replicas: 2', '  replica: 2'), /'"replica"' does not exist in type 'IDeploymentSpec'/],
    ['an unknown kind', 'kind.yaml', (t) => t.replace('kind: Service', 'kind: Servic'), /unknown apiVersion\/kind: v1\/Servic/],
  ];

  test('fails on a misspelt field, a wrong type, an unknown field and an unknown kind, naming each', () => {
    // One validator run over the four broken copies (each compiles the TypeScript check once).
    const files = broken.map(([, name, edit]) => brokenCopy(name, edit));
    const { status, docs } = validate(files);
    expect(status).toBe(1);
    for (const [what, name, , message] of broken) {
      const failing = docs.filter((d) => path.basename(d.file) === name && d.errors.length);
      // Only the edited document of each copy is reported, with a message naming the fault.
      expect({ what, failing: failing.length }).toEqual({ what, failing: 1 });
      expect({ what, errors: failing[0]!.errors.join('\n') }).toEqual({ what, errors: expect.stringMatching(message) });
    }
  });
});

describe('what docs/deploy.md says of the manifests', () => {
  test.each([
    ['esign-api', 8001],
    ['wildfire-api', 8002],
  ])('%s: replicas behind a Service, readiness and liveness on /health, requests and limits', (name, port) => {
    const deployment = byName('Deployment', name);
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    const container = deployment.spec.template.spec.containers[0];
    expect(container.ports).toEqual([{ name: 'http', containerPort: port }]);
    for (const probe of ['readinessProbe', 'livenessProbe']) expect(container[probe].httpGet).toEqual({ path: '/health', port: 'http' });
    expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container.resources.limits).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
    const service = byName('Service', name);
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
    expect(service.spec.ports).toEqual([{ name: 'http', port, targetPort: 'http' }]);
  });

  test.each(['esign', 'wildfire'])('%s: API and worker run the same image with the two commands, config from the ConfigMap and Secret', (svc) => {
    const api = byName('Deployment', `${svc}-api`).spec.template.spec.containers[0];
    const worker = byName('Deployment', `${svc}-worker`).spec.template.spec.containers[0];
    expect(worker.image).toBe(api.image);
    expect(api.args).toEqual(['node', `services/${svc}/dist/api.js`]);
    expect(worker.args).toEqual(['node', `services/${svc}/dist/worker.js`]);
    for (const c of [api, worker]) {
      expect(c.envFrom).toEqual([{ configMapRef: { name: `${svc}-config` } }, { secretRef: { name: `${svc}-secrets` } }]);
      expect(c.resources.limits).toBeDefined();
    }
    const config = byName('ConfigMap', `${svc}-config`).data;
    expect(config[`${svc.toUpperCase()}_STORAGE`]).toBe('postgres');
  });

  test('the gateway points at the two API Services and runs the repository template and script', () => {
    const container = byName('Deployment', 'gateway').spec.template.spec.containers[0];
    const env = Object.fromEntries(container.env.map((e: { name: string; value: string }) => [e.name, e.value]));
    expect(env.ESIGN_UPSTREAMS).toBe('esign-api.firma-riesgo.svc.cluster.local:8001');
    expect(env.WILDFIRE_UPSTREAMS).toBe('wildfire-api.firma-riesgo.svc.cluster.local:8002');
    expect(env.NGINX_ENVSUBST_FILTER).toBe('^(ESIGN_UPSTREAM_SERVERS|WILDFIRE_UPSTREAM_SERVERS|GATEWAY_PORT|GATEWAY_REAL_IP_FROM|GATEWAY_TRUSTED_HOPS)$');
    expect(container.volumeMounts.map((m: { mountPath: string }) => m.mountPath).sort()).toEqual([
      '/docker-entrypoint.d/18-upstream-servers.envsh',
      '/docker-entrypoint.d/19-trusted-proxies.envsh',
      '/etc/nginx/templates/default.conf.template',
    ]);
    // Executable, or the image's entrypoint skips the script.
    expect(byName('Deployment', 'gateway').spec.template.spec.volumes[0].configMap.defaultMode).toBe(0o755);
  });

  test('the client survives the ingress: the gateway trusts the ingress range, the services trust the gateway', () => {
    const container = byName('Deployment', 'gateway').spec.template.spec.containers[0];
    const env = Object.fromEntries(container.env.map((e: { name: string; value: string }) => [e.name, e.value]));
    // The same script the gateway runs accepts the range the manifest passes.
    const script = spawnSync('/bin/sh', ['-c', '. "$1" && printf "%s" "$GATEWAY_REAL_IP_FROM"', 'sh', path.join(DIR, '..', 'gateway', 'trusted-proxies.envsh')], {
      env: { PATH: process.env.PATH, GATEWAY_TRUSTED_PROXIES: env.GATEWAY_TRUSTED_PROXIES },
      encoding: 'utf8',
    });
    expect(script.status).toBe(0);
    expect(script.stdout).toBe(`set_real_ip_from ${env.GATEWAY_TRUSTED_PROXIES};`);
    for (const svc of ['esign', 'wildfire']) expect(byName('ConfigMap', `${svc}-config`).data.TRUSTED_PROXIES).toEqual(expect.stringMatching(/^\S+\/\d+$/));
  });
});

describe('the example Secrets of config.yaml', () => {
  const REPO_ROOT = path.resolve(DIR, '..', '..');
  /** The environment a pod of `svc` gets: its ConfigMap, then its Secret (envFrom order). */
  const podEnv = (svc: string): Record<string, string> => ({ ...byName('ConfigMap', `${svc}-config`).data, ...byName('Secret', `${svc}-secrets`).stringData });
  /** Variables of the Secret whose example value is a placeholder: every secret one, not REDIS_URL. */
  const placeholders = (svc: string) => Object.entries(byName('Secret', `${svc}-secrets`).stringData as Record<string, string>).filter(([, v]) => PLACEHOLDER_VALUE.test(v)).map(([k]) => k).sort();

  test('every secret value in them is a visible placeholder', () => {
    expect(placeholders('esign')).toEqual(['ESIGN_DATABASE_URL', 'ESIGN_SESSION_SECRET', 'METRICS_TOKEN', 'SIGNING_IDENTITY_KEY', 'SMTP_URL', 'WEBHOOK_SECRET_KEY']);
    expect(placeholders('wildfire')).toEqual(['METRICS_TOKEN', 'WILDFIRE_DATABASE_URL', 'WILDFIRE_WEBHOOK_SECRET_KEY']);
  });

  test.each([
    ['esign', loadEsignConfig],
    ['wildfire', loadWildfireConfig],
  ] as const)('%s: the config parser refuses them, naming each variable', (svc, load) => {
    let error: unknown;
    try {
      load(podEnv(svc));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    for (const name of placeholders(svc)) expect(problems).toContainEqual(expect.stringMatching(new RegExp(`^${name}: is an example placeholder`)));
    // Only the placeholders: the rest of the example configuration is valid as written.
    expect(problems).toHaveLength(placeholders(svc).length);
    // The values themselves (passwords in URLs included) are not echoed.
    expect(problems.join('\n')).not.toMatch(/postgres:\/\/|smtp:\/\//);
  });

  test.each(['esign', 'wildfire'])('%s: the API process started with them exits 2 before opening anything, naming the variables', (svc) => {
    const entry = path.join(REPO_ROOT, 'services', svc, 'dist', 'api.js');
    expect(fs.existsSync(entry)).toBe(true); // build first (tsc -b)
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, ...podEnv(svc), DATA_DIR: tmp };
    const res = spawnSync(process.execPath, [entry], { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 60_000 });
    expect(res.status).toBe(2);
    for (const name of placeholders(svc)) expect(res.stderr).toContain(`${name}: is an example placeholder`);
  });

  test.each(['change-me', 'CHANGE_ME', 'changeme', 'REPLACE+with+openssl+rand+base64+32+output='])('a secret of the form %j is refused; a real one is not', (value) => {
    const real = Buffer.alloc(32, 9).toString('base64');
    expect(() => loadEsignConfig({ METRICS_TOKEN: `${value}-token-of-16+chars` })).toThrow(/METRICS_TOKEN: is an example placeholder/);
    expect(() => loadEsignConfig({ WEBHOOK_SECRET_KEY: value.startsWith('REPLACE') ? value : `${value}`.padEnd(44, 'x') })).toThrow(/WEBHOOK_SECRET_KEY: is an example placeholder/);
    expect(loadEsignConfig({ WEBHOOK_SECRET_KEY: real, METRICS_TOKEN: 'a'.repeat(24) }).webhooks.secretKey).toEqual(Buffer.from(real, 'base64'));
  });
});
