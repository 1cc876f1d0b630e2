import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { createTsaClient, TsaError } from './tsa-client';
import { startOpensslTsa, type OpensslTsa } from './__tests__/openssl-tsa';

/** One URL in front of either test TSA, optionally corrupting the token's signature on the way back. */
async function startSwitch(target: () => OpensslTsa, corrupt: () => boolean): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const answer = await fetch(target().url, { method: 'POST', headers: { 'content-type': 'application/timestamp-query' }, body: Buffer.concat(chunks) });
      const reply = Buffer.from(await answer.arrayBuffer());
      const body: Buffer = corrupt() ? withFlippedSignature(reply) : reply;
      res.writeHead(answer.status, { 'content-type': 'application/timestamp-reply' }).end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The reply with the last byte of its token's signature value changed (same length, same certificates). */
function withFlippedSignature(reply: Buffer): Buffer {
  const resp = new pkijs.TimeStampResp({ schema: asn1js.fromBER(reply).result });
  const signature = Buffer.from(new pkijs.SignedData({ schema: resp.timeStampToken!.content }).signerInfos[0]!.signature.valueBlock.valueHexView);
  const at = reply.indexOf(signature);
  const copy = Buffer.from(reply);
  copy[at + signature.length - 1] = copy[at + signature.length - 1]! ^ 0x01;
  return copy;
}

describe('the TSA client’s certificate parsing', () => {
  let a: OpensslTsa;
  let b: OpensslTsa;
  let current: () => OpensslTsa;
  let corrupt = false;
  let proxy: Awaited<ReturnType<typeof startSwitch>>;

  beforeAll(async () => {
    [a, b] = await Promise.all([startOpensslTsa(), startOpensslTsa()]);
    current = () => a;
    proxy = await startSwitch(
      () => current(),
      () => corrupt,
    );
  });

  afterAll(async () => {
    await proxy?.close();
    await a?.close();
    await b?.close();
  });

  afterEach(() => {
    jest.restoreAllMocks();
    current = () => a;
    corrupt = false;
  });

  it('parses the certificates a TSA sends with every token once, and still checks every token', async () => {
    const client = createTsaClient({ url: proxy.url });
    const parses = jest.spyOn(pkijs.Certificate.prototype, 'fromSchema');
    const first = await client.timestamp(randomBytes(256));
    const afterFirst = parses.mock.calls.length;
    expect(afterFirst).toBeGreaterThanOrEqual(2); // the TSA's certificate and its root
    const later = [await client.timestamp(randomBytes(256)), await client.timestamp(randomBytes(256))];
    expect(parses.mock.calls.length).toBe(afterFirst);
    for (const token of [first, ...later]) expect(token.genTime).toBeInstanceOf(Date);
  });

  it('parses them again when the TSA behind the URL sends other certificates, and back', async () => {
    const client = createTsaClient({ url: proxy.url });
    await client.timestamp(randomBytes(256));
    current = () => b;
    const fromB = await client.timestamp(randomBytes(256));
    current = () => a;
    const fromA = await client.timestamp(randomBytes(256));
    expect([fromB.genTime, fromA.genTime].every((t) => t instanceof Date)).toBe(true);
    expect(b.served).toBeGreaterThanOrEqual(1);
  });

  it('refuses a token whose signature does not verify, though its certificates are the known ones', async () => {
    const client = createTsaClient({ url: proxy.url });
    await client.timestamp(randomBytes(256));
    corrupt = true;
    await expect(client.timestamp(randomBytes(256))).rejects.toThrow(TsaError);
    await expect(client.timestamp(randomBytes(256))).rejects.toThrow('does not verify');
  });
});
