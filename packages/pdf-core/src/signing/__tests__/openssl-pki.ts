import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A CA made with `openssl ca`: its files, and the `openssl ocsp` responder answering for what it issued. */
interface TestCa {
  name: string;
  dir: string;
  cert: string;
  key: string;
  config: string;
  ocspPort: number;
  responder?: ChildProcess;
}

export interface OpensslPki {
  dir: string;
  root: string;
  intermediate: string;
  /** The seal certificate (EKU id-kp-documentSigning) and key, and a PKCS#12 of both with the chain (password "test"). */
  seal: { cert: string; key: string; p12: string };
  /** The TSA certificate (EKU timeStamping), its key, and its chain (intermediate + root) for `openssl ts`. */
  tsa: { cert: string; key: string; chain: string };
  /** Requests the loopback CRL server answered. */
  crlServed: number;
  /** Issues another seal certificate under the intermediate (a rotated identity), with its PKCS#12 (password "test"). */
  issueSeal(name: string): Promise<{ cert: string; key: string; p12: string }>;
  /** Revokes a certificate issued by the intermediate (index updated, CRL regenerated). */
  revokeByIntermediate(certFile: string): Promise<void>;
  /** Revokes a certificate issued by the root: the intermediate, or the TSA when it sits under the root. */
  revokeByRoot(certFile: string): Promise<void>;
  /** Stops (`false`) or restarts (`true`) both OCSP responders; the CRL server likewise. */
  setOcsp(up: boolean): Promise<void>;
  setCrl(up: boolean): void;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Resolves once the responder says it waits for clients. (Probing the port instead hangs
 * `openssl ocsp`: it blocks on the probe's empty connection.)
 */
async function ready(child: ChildProcess, deadlineMs = 10_000): Promise<void> {
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`openssl ocsp did not start: ${seen}`)), deadlineMs);
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.includes('waiting for OCSP client connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`openssl ocsp exited ${code}: ${seen}`)));
  });
}

function caConfig(ca: { dir: string; cert: string; key: string }): string {
  return [
    '[ ca ]',
    'default_ca = this',
    '[ this ]',
    `dir = ${ca.dir}`,
    `database = ${ca.dir}/index.txt`,
    `new_certs_dir = ${ca.dir}/issued`,
    `certificate = ${ca.cert}`,
    `private_key = ${ca.key}`,
    `serial = ${ca.dir}/serial`,
    `crlnumber = ${ca.dir}/crlnumber`,
    'default_md = sha256',
    'default_days = 30',
    'default_crl_days = 1',
    'policy = anything',
    'unique_subject = no',
    'copy_extensions = none',
    '[ anything ]',
    'commonName = supplied',
    'organizationName = optional',
    '',
  ].join('\n');
}

/**
 * A test PKI made with openssl: a root, an intermediate under it, a seal certificate and
 * a TSA certificate under the intermediate. Each certificate below the root names an OCSP
 * responder (a real `openssl ocsp -index ... -port` per CA) and a CRL (served over
 * loopback HTTP, made with `openssl ca -gencrl`) in its AIA and distribution points.
 */
export async function startOpensslPki(
  options: {
    /** Lifetime of the seal certificate (default the CA's 30 days): short for time-travel tests. */
    sealDays?: number;
    /** The CA that issues the TSA certificate (default the intermediate): the root keeps the TSA out of the intermediate's revocation. */
    tsaIssuer?: 'root' | 'intermediate';
  } = {},
): Promise<OpensslPki> {
  const dir = mkdtempSync(join(tmpdir(), 'pki-'));
  const crlPort = await freePort();
  const crlBase = `http://127.0.0.1:${crlPort}`;
  const cas: Record<'root' | 'intermediate', TestCa> = {} as never;
  for (const name of ['root', 'intermediate'] as const) {
    const caDir = join(dir, name);
    mkdirSync(join(caDir, 'issued'), { recursive: true });
    writeFileSync(join(caDir, 'index.txt'), '');
    writeFileSync(join(caDir, 'serial'), name === 'root' ? '1000\n' : '2000\n');
    writeFileSync(join(caDir, 'crlnumber'), '01\n');
    const ca: TestCa = { name, dir: caDir, cert: join(caDir, 'ca.pem'), key: join(caDir, 'ca.key'), config: join(caDir, 'ca.cnf'), ocspPort: await freePort() };
    writeFileSync(ca.config, caConfig(ca));
    cas[name] = ca;
  }
  const { root, intermediate } = cas;
  const leafExtensions = (ca: TestCa, extra: string) =>
    [
      'basicConstraints=critical,CA:false',
      extra,
      'subjectKeyIdentifier=hash',
      'authorityKeyIdentifier=keyid',
      `authorityInfoAccess=OCSP;URI:http://127.0.0.1:${ca.ocspPort}/,caIssuers;URI:${crlBase}/${ca.name}.crt`,
      `crlDistributionPoints=URI:${crlBase}/${ca.name}.crl`,
      '',
    ].join('\n');

  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', root.key, '-out', root.cert, '-days', '30', '-subj', '/CN=Test PKI Root/O=Firma tests',
    '-addext', 'basicConstraints=critical,CA:true', '-addext', 'keyUsage=critical,keyCertSign,cRLSign', '-addext', 'subjectKeyIdentifier=hash']);
  const issue = async (ca: TestCa, name: string, subject: string, extensions: string, out: { cert: string; key: string }, days?: number) => {
    const csr = join(dir, `${name}.csr`);
    const ext = join(dir, `${name}.ext`);
    writeFileSync(ext, extensions);
    await run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', out.key, '-out', csr, '-subj', subject]);
    await run('openssl', ['ca', '-batch', '-config', ca.config, '-notext', '-in', csr, '-out', out.cert, '-extfile', ext, ...(days ? ['-days', String(days)] : [])]);
  };
  await issue(root, 'intermediate', '/CN=Test PKI Intermediate/O=Firma tests', leafExtensions(root, 'keyUsage=critical,keyCertSign,cRLSign').replace('CA:false', 'CA:true,pathlen:0'), intermediate);
  const seal = { cert: join(dir, 'seal.pem'), key: join(dir, 'seal.key'), p12: join(dir, 'seal.p12') };
  await issue(intermediate, 'seal', '/CN=Sello de prueba/O=Firma tests', leafExtensions(intermediate, 'keyUsage=critical,digitalSignature,nonRepudiation\nextendedKeyUsage=1.3.6.1.5.5.7.3.36'), seal, options.sealDays);
  const tsa = { cert: join(dir, 'tsa.pem'), key: join(dir, 'tsa.key'), chain: join(dir, 'tsa-chain.pem') };
  const tsaCa = options.tsaIssuer === 'root' ? root : intermediate;
  await issue(tsaCa, 'tsa', '/CN=Test PKI TSA/O=Firma tests', leafExtensions(tsaCa, 'keyUsage=critical,digitalSignature,nonRepudiation\nextendedKeyUsage=critical,timeStamping'), tsa);
  writeFileSync(tsa.chain, (tsaCa === root ? '' : readFileSync(intermediate.cert, 'latin1')) + readFileSync(root.cert, 'latin1'));
  writeFileSync(join(dir, 'chain.pem'), readFileSync(intermediate.cert, 'latin1') + readFileSync(root.cert, 'latin1'));
  await run('openssl', ['pkcs12', '-export', '-inkey', seal.key, '-in', seal.cert, '-certfile', join(dir, 'chain.pem'), '-out', seal.p12, '-passout', 'pass:test']);

  const gencrl = async (ca: TestCa) => {
    await run('openssl', ['ca', '-config', ca.config, '-gencrl', '-out', join(ca.dir, 'crl.pem')]);
    await run('openssl', ['crl', '-in', join(ca.dir, 'crl.pem'), '-outform', 'DER', '-out', join(ca.dir, 'crl.der')]);
  };
  await gencrl(root);
  await gencrl(intermediate);

  const startResponder = async (ca: TestCa) => {
    // Signed by the CA itself; no -nmin/-ndays: answers carry no nextUpdate (always fresh).
    ca.responder = spawn('openssl', ['ocsp', '-index', join(ca.dir, 'index.txt'), '-port', String(ca.ocspPort), '-rsigner', ca.cert, '-rkey', ca.key, '-CA', ca.cert], { stdio: ['ignore', 'ignore', 'pipe'] });
    await ready(ca.responder);
  };
  const stopResponder = async (ca: TestCa) => {
    const child = ca.responder;
    ca.responder = undefined;
    if (!child || child.exitCode !== null) return;
    child.kill();
    await once(child, 'exit');
  };

  const revoke = async (ca: TestCa, certFile: string) => {
    await run('openssl', ['ca', '-config', ca.config, '-revoke', certFile]);
    await gencrl(ca);
    // Started again so the index is read afresh whatever the OpenSSL version does.
    if (ca.responder) {
      await stopResponder(ca);
      await startResponder(ca);
    }
  };

  let crlUp = true;
  const pki: OpensslPki = {
    dir,
    root: root.cert,
    intermediate: intermediate.cert,
    seal,
    tsa,
    crlServed: 0,
    async issueSeal(name) {
      const out = { cert: join(dir, `${name}.pem`), key: join(dir, `${name}.key`), p12: join(dir, `${name}.p12`) };
      await issue(intermediate, name, `/CN=${name}/O=Firma tests`, leafExtensions(intermediate, 'keyUsage=critical,digitalSignature,nonRepudiation\nextendedKeyUsage=1.3.6.1.5.5.7.3.36'), out, options.sealDays);
      await run('openssl', ['pkcs12', '-export', '-inkey', out.key, '-in', out.cert, '-certfile', join(dir, 'chain.pem'), '-out', out.p12, '-passout', 'pass:test']);
      await gencrl(intermediate);
      if (intermediate.responder) {
        await stopResponder(intermediate);
        await startResponder(intermediate);
      }
      return out;
    },
    async revokeByIntermediate(certFile) {
      await revoke(intermediate, certFile);
    },
    async revokeByRoot(certFile) {
      await revoke(root, certFile);
    },
    async setOcsp(up) {
      for (const ca of [root, intermediate]) {
        if (up && !ca.responder) await startResponder(ca);
        if (!up) await stopResponder(ca);
      }
    },
    setCrl(up) {
      crlUp = up;
    },
    async close() {
      await stopResponder(root);
      await stopResponder(intermediate);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const server: Server = createServer((req, res) => {
    const match = /^\/(root|intermediate)\.(crl|crt)$/.exec(req.url ?? '');
    if (!crlUp || !match) return void res.writeHead(crlUp ? 404 : 503).end();
    pki.crlServed += 1;
    const ca = cas[match[1] as 'root' | 'intermediate'];
    if (match[2] === 'crl') res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(readFileSync(join(ca.dir, 'crl.der')));
    else res.writeHead(200, { 'content-type': 'application/pkix-cert' }).end(readFileSync(ca.cert));
  });
  server.listen(crlPort, '127.0.0.1');
  await once(server, 'listening');
  await pki.setOcsp(true);
  return pki;
}
