import { readFile, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { EsignClient } from '@firma-riesgo/esign-client';

const esign = new EsignClient({ baseUrl: process.env.ESIGN_URL, key: process.env.ESIGN_KEY });

async function main(): Promise<void> {
  const doc = await esign.uploadDocument({ file: await readFile('contrato.pdf'), filename: 'contrato.pdf' });
  const { request_id } = await esign.createSigningRequest({ document_id: doc.document_id, signee_email: 'ana@example.org' });
  let request = await esign.getSigningRequestStatus(request_id);
  while (request.status === 'pending' || request.signature?.status === 'sealing') {
    await sleep(Number(process.env.POLL_MS ?? 10_000)); // signed by Ana, then sealed
    request = await esign.getSigningRequestStatus(request_id);
  }
  await writeFile('contrato-firmado.pdf', Readable.fromWeb((await esign.downloadSignedPdf(doc.document_id)).body));
  console.log(`contrato-firmado.pdf: ${request.signature?.level}, sha256 ${request.signature?.signed_sha256}`);
}

main().catch((err: unknown) => ((process.exitCode = 1), console.error(err)));
