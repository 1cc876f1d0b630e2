import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * What the test TSA does with the next requests: answer properly, refuse (HTTP 503 or a
 * PKIStatus rejection), or answer properly signed replies to a different query (wrong
 * imprint and nonce) as a confused or replaying TSA would.
 */
export type TsaMode = 'ok' | 'unavailable' | 'rejection' | 'wrong-imprint';

export interface OpensslTsa {
  url: string;
  /** The test root that issued the TSA certificate: `openssl ts -verify -CAfile`. */
  caFile: string;
  /** The TSA certificate (untrusted chain for `openssl ts -verify`). */
  tsaCertFile: string;
  dir: string;
  mode: TsaMode;
  /** Requests answered so far, any mode. */
  served: number;
  close(): Promise<void>;
}

/**
 * A real RFC 3161 TSA over HTTP: each request runs `openssl ts -reply` with a test CA
 * and TSA certificate made here. One request at a time: openssl reads the query from a
 * file and keeps a serial file.
 */
export async function startOpensslTsa(signer?: TsaSigner): Promise<OpensslTsa> {
  const dir = mkdtempSync(join(tmpdir(), 'tsa-'));
  const f = (name: string) => join(dir, name);
  if (signer) {
    copyFileSync(signer.cert, f('tsa.pem'));
    copyFileSync(signer.key, f('tsa.key'));
    copyFileSync(signer.chain, f('ca.pem'));
  } else await makeOwnCertificates(f);
  writeFileSync(f('serial'), '01\n');
  return serve(dir, f, signer?.caFile ?? f('ca.pem'));
}

/**
 * A TSA certificate from another test PKI (openssl-pki.ts): its certificate and key, the
 * chain its tokens carry, and the root `openssl ts -verify` trusts.
 */
export interface TsaSigner {
  cert: string;
  key: string;
  chain: string;
  caFile: string;
}

async function makeOwnCertificates(f: (name: string) => string): Promise<void> {
  writeFileSync(f('ext.cnf'), 'basicConstraints=critical,CA:false\nkeyUsage=critical,digitalSignature,nonRepudiation\nextendedKeyUsage=critical,timeStamping\n');
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '2', '-subj', '/CN=Test TSA Root',
    '-addext', 'basicConstraints=critical,CA:true', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  await run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('tsa.key'), '-out', f('tsa.csr'), '-subj', '/CN=Test TSA']);
  await run('openssl', ['x509', '-req', '-in', f('tsa.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-set_serial', '2', '-out', f('tsa.pem'), '-days', '2', '-extfile', f('ext.cnf')]);
}

async function serve(dir: string, f: (name: string) => string, caFile: string): Promise<OpensslTsa> {
  writeFileSync(
    f('tsa.cnf'),
    [
      '[ tsa ]',
      'default_tsa = tsa_config',
      '[ tsa_config ]',
      `serial = ${f('serial')}`,
      'crypto_device = builtin',
      `signer_cert = ${f('tsa.pem')}`,
      `certs = ${f('ca.pem')}`,
      `signer_key = ${f('tsa.key')}`,
      'signer_digest = sha256',
      'default_policy = 1.2.3.4.1',
      'digests = sha256, sha384, sha512',
      'accuracy = secs:1',
      'ordering = yes',
      'tsa_name = no',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );

  let chain: Promise<unknown> = Promise.resolve();
  const reply = async (query: Buffer, mode: TsaMode): Promise<{ status: number; body: Buffer }> => {
    if (mode === 'unavailable') return { status: 503, body: Buffer.from('busy') };
    // TimeStampResp { status PKIStatusInfo { status rejection(2) } }
    if (mode === 'rejection') return { status: 200, body: Buffer.from([0x30, 0x05, 0x30, 0x03, 0x02, 0x01, 0x02]) };
    if (mode === 'wrong-imprint') {
      await run('openssl', ['ts', '-query', '-digest', 'ab'.repeat(32), '-sha256', '-cert', '-out', f('query.tsq')]);
    } else {
      writeFileSync(f('query.tsq'), query);
    }
    await run('openssl', ['ts', '-reply', '-config', f('tsa.cnf'), '-queryfile', f('query.tsq'), '-out', f('reply.tsr')]);
    return { status: 200, body: readFileSync(f('reply.tsr')) };
  };

  const tsa: OpensslTsa = {
    url: '',
    caFile,
    tsaCertFile: f('tsa.pem'),
    dir,
    mode: 'ok',
    served: 0,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const mode = tsa.mode;
      const job = chain.then(() => reply(Buffer.concat(chunks), mode));
      chain = job.catch(() => undefined);
      job.then(
        ({ status, body }) => {
          tsa.served += 1;
          res.writeHead(status, { 'content-type': 'application/timestamp-reply' }).end(body);
        },
        (err: Error) => res.writeHead(500).end(err.message),
      );
    });
  });
  server.keepAliveTimeout = 1;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  tsa.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`;
  return tsa;
}
