import { writeFileSync } from 'node:fs';
import request from 'supertest';
import { startTestEsign } from './__tests__/support';

it('snapshots', async () => {
  const t = await startTestEsign({ name: 'esign_snap' });
  const rt = (t as any).rt ?? t;
  const doc = await request(rt.server!).get('/openapi.json');
  const h = await request(rt.server!).get('/health');
  writeFileSync(`/tmp/snap/esign-${process.env.SNAP}.json`, JSON.stringify({ health: doc.body.components.schemas.Health, path: doc.body.paths['/health'], body: h.body, status: h.status }, null, 1));
  await (t as any).close();
});
