'use strict';
// A real RFC 3161 TSA over HTTP on `openssl ts -reply`, one request at a time (it keeps a
// serial file), run as a small process of its own by esign-signing.bench.js: a TSA is
// another host, so its work must not run on the service's event loop, and `openssl` must
// not be forked from the bench process (a fork costs about 3 ms per 100 MB of the caller's
// memory, blocking the caller's event loop meanwhile). The TSA certificate names an OCSP
// responder in its AIA: a real `openssl ocsp -index … -port` in its own process, answering
// with a nextUpdate a day on (as a CA's responder does), so B-LT and B-LTA seals can fetch
// its status. Sends { url, ocspUrl } to its parent once both listen; exits when the parent
// disconnects.
const { execFile, spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { createServer } = require('node:http');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { promisify } = require('node:util');

const run = promisify(execFile);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-tsa-'));
  const f = (n) => join(dir, n);
  let ocsp;
  process.on('disconnect', () => {
    ocsp?.kill();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
  const ocspPort = await freePort();
  writeFileSync(
    f('ext.cnf'),
    `basicConstraints=critical,CA:false\nkeyUsage=critical,digitalSignature,nonRepudiation\nextendedKeyUsage=critical,timeStamping\nauthorityInfoAccess=OCSP;URI:http://127.0.0.1:${ocspPort}/\n`,
  );
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '2', '-subj', '/CN=Bench TSA Root', '-addext', 'basicConstraints=critical,CA:true']);
  await run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('tsa.key'), '-out', f('tsa.csr'), '-subj', '/CN=Bench TSA']);
  await run('openssl', ['x509', '-req', '-in', f('tsa.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-set_serial', '2', '-out', f('tsa.pem'), '-days', '2', '-extfile', f('ext.cnf')]);
  // The root's index, as `openssl ca` would keep it: the TSA certificate (serial 02), valid.
  const notAfter = new Date((await run('openssl', ['x509', '-in', f('tsa.pem'), '-noout', '-enddate'])).stdout.trim().split('=')[1]);
  const stamp = notAfter.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z';
  writeFileSync(f('index.txt'), `V\t${stamp}\t\t02\tunknown\t/CN=Bench TSA\n`);
  ocsp = spawn('openssl', ['ocsp', '-index', f('index.txt'), '-port', String(ocspPort), '-rsigner', f('ca.pem'), '-rkey', f('ca.key'), '-CA', f('ca.pem'), '-ndays', '1'], { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise((resolve, reject) => {
    let seen = '';
    ocsp.stderr.on('data', (chunk) => {
      seen += chunk;
      if (seen.includes('waiting for OCSP client connections')) resolve();
    });
    ocsp.once('exit', (code) => reject(new Error(`openssl ocsp exited ${code}: ${seen}`)));
  });
  writeFileSync(f('serial'), '01\n');
  writeFileSync(
    f('tsa.cnf'),
    `[ tsa ]\ndefault_tsa = t\n[ t ]\nserial = ${f('serial')}\ncrypto_device = builtin\nsigner_cert = ${f('tsa.pem')}\ncerts = ${f('ca.pem')}\nsigner_key = ${f('tsa.key')}\nsigner_digest = sha256\ndefault_policy = 1.2.3.4.1\ndigests = sha256\naccuracy = secs:1\ness_cert_id_alg = sha256\n`,
  );
  let chain = Promise.resolve();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const job = chain.then(async () => {
        writeFileSync(f('q.tsq'), Buffer.concat(chunks));
        await run('openssl', ['ts', '-reply', '-config', f('tsa.cnf'), '-queryfile', f('q.tsq'), '-out', f('r.tsr')], { timeout: 10_000 });
        return readFileSync(f('r.tsr'));
      });
      chain = job.catch(() => undefined);
      job.then(
        (body) => res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(body),
        (err) => res.writeHead(500).end(String(err)),
      );
    });
  });
  server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}/tsa`, ocspUrl: `http://127.0.0.1:${ocspPort}/` }));
}

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
