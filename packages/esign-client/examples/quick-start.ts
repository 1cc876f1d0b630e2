import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { EsignClient } from '@firma-riesgo/esign-client';

const esign = new EsignClient({ baseUrl: process.env.ESIGN_URL, key: process.env.ESIGN_KEY });
const pollMs = Number(process.env.POLL_MS ?? 10_000);

async function main(): Promise<void> {
  const doc = await esign.uploadDocument({ file: await readFile('contrato.pdf'), filename: 'contrato.pdf', title: 'Contrato' });
  const { request_id } = await esign.createSigningRequest({ document_id: doc.document_id, signee_email: 'ana@example.org', signee_name: 'Ana García' });
  let request = await esign.getSigningRequestStatus(request_id);
  // Signed, then sealed by a worker a moment later: wait for both.
  while (request.status === 'pending' || request.signature?.status === 'sealing') {
    await sleep(pollMs);
    request = await esign.getSigningRequestStatus(request_id);
  }
  if (request.signature?.status !== 'sealed') throw new Error(`the request ended ${request.status}`);
  const signed = await esign.downloadSignedPdf(doc.document_id);
  await pipeline(Readable.fromWeb(signed.body), createWriteStream('contrato-firmado.pdf'));
  console.log(`contrato-firmado.pdf: ${request.signature.level}, sha256 ${request.signature.signed_sha256}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
