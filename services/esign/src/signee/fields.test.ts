import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import request from 'supertest';
import { eventually, mailText, otpOf, startTestEsign, verifyWithTools, type TestEsign } from '../__tests__/support';
import { fieldDate } from '../signatures/stamp-fields';

const run = promisify(execFile);
type Box = { x: number; y: number; w: number; h: number };
type Placed = { name: string; type: string; resolved: { page: number; box: Box }[] };

/** A 3-page lease made with pdf-lib, with `{{…}}` anchor strings in its text. */
async function leasePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const lines: string[][] = [
    ['Contrato de arrendamiento de vivienda', 'Arrendatario con DNI {{dni}} en adelante la parte arrendataria.', 'Clausula primera: objeto del contrato.'],
    ['Clausula segunda: duracion de cinco anos.', '{{acepto}} Acepto las condiciones generales.'],
    ['Clausula tercera: renta mensual.', 'En Madrid, a {{fecha}}', 'Firma del arrendatario:'],
  ];
  for (const pageLines of lines) {
    const page = doc.addPage([595, 842]);
    pageLines.forEach((text, i) => page.drawText(text, { x: 60, y: 760 - i * 40, size: 12, font }));
  }
  return Buffer.from(await doc.save());
}

/** A 120×40 PNG: white with a dark diagonal stroke (as the pad draws one). */
function strokePng(): string {
  const { deflateSync, crc32 } = require('node:zlib') as typeof import('node:zlib');
  const width = 120;
  const height = 40;
  const raw = Buffer.alloc((width * 3 + 1) * height, 0xff);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0;
    const x = Math.floor((y / height) * width);
    raw.fill(0, y * (width * 3 + 1) + 1 + x * 3, y * (width * 3 + 1) + 1 + x * 3 + 9);
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const png = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
  return png.toString('base64');
}

/** Every word pdftotext finds, with its page and its box in points from the top-left. */
async function wordsOf(pdf: Buffer): Promise<{ page: number; text: string; xMin: number; yMin: number; xMax: number; yMax: number; width: number; height: number }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'fields-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    const { stdout } = await run('pdftotext', ['-bbox', join(dir, 'in.pdf'), '-'], { timeout: 30_000, maxBuffer: 16 * 1024 * 1024 });
    const out = [];
    let page = 0;
    let size = { width: 0, height: 0 };
    for (const line of stdout.split('\n')) {
      const p = /<page width="([\d.]+)" height="([\d.]+)">/.exec(line);
      if (p) {
        page++;
        size = { width: Number(p[1]), height: Number(p[2]) };
      }
      const w = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/.exec(line);
      if (w) out.push({ page, text: w[5]!.replace(/&amp;/g, '&'), xMin: Number(w[1]), yMin: Number(w[2]), xMax: Number(w[3]), yMax: Number(w[4]), ...size });
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The page rendered grey at 72 dpi (one pixel a point): width, height and one byte a pixel. */
async function renderGray(pdf: Buffer, page: number): Promise<{ width: number; height: number; pixels: Buffer }> {
  const dir = mkdtempSync(join(tmpdir(), 'fields-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    await run('pdftoppm', ['-gray', '-r', '72', '-f', String(page), '-l', String(page), '-singlefile', join(dir, 'in.pdf'), join(dir, 'out')], { timeout: 30_000 });
    const pgm = readFileSync(join(dir, 'out.pgm'));
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'))!;
    return { width: Number(header[1]), height: Number(header[2]), pixels: pgm.subarray(header[0].length) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const within = (word: { xMin: number; yMin: number; xMax: number; yMax: number; width: number; height: number }, box: Box, slack = 0.5) =>
  word.xMin >= box.x * word.width - slack && word.xMax <= (box.x + box.w) * word.width + slack && word.yMin >= box.y * word.height - slack && word.yMax <= (box.y + box.h) * word.height + slack;

describe('fields: placed by box and by anchor, filled on confirm, stamped in their boxes', () => {
  let env: TestEsign;
  let key: string;
  let lease: Buffer;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_fields' });
    key = await env.keyFor('acme');
    lease = await leasePdf();
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  const binary = (res: { on: (event: string, listener: (chunk: Buffer) => void) => unknown }, cb: (err: Error | null, body: Buffer) => void) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  };

  async function upload(): Promise<string> {
    const res = await api().post('/firma/documentos').set('authorization', key).field('title', 'Arrendamiento').attach('file', lease, { filename: 'lease.pdf', contentType: 'application/pdf' });
    expect(res.status).toBe(200);
    return res.body.document_id as string;
  }
  const create = (body: Record<string, unknown>) => api().post('/firma/solicitudes').set('authorization', key).send(body);

  const FIELDS = [
    { type: 'initials', page: 'all', box: { x: 0.85, y: 0.9, w: 0.1, h: 0.05 } },
    { type: 'text', name: 'dni', label: 'DNI', anchor: '{{dni}}', size: { w: 0.2, h: 0.025 }, pattern: '[0-9]{8}[A-Z]', max_length: 9 },
    { type: 'checkbox', name: 'acepta', label: 'Acepto las condiciones', required: true, anchor: '{{acepto}}' },
    { type: 'date', anchor: '{{fecha}}', size: { w: 0.2, h: 0.025 } },
    { type: 'signature', page: 'last', box: { x: 0.1, y: 0.2, w: 0.4, h: 0.1 } },
    { type: 'name', page: 3, box: { x: 0.1, y: 0.31, w: 0.4, h: 0.03 } },
  ];

  it('places fields by box and anchor, refuses a bad value without using the code, and stamps every value in its box on the sealed copy and the final PDF', async () => {
    const id = await upload();
    const created = await create({ document_id: id, signee_email: 'ana@example.test', signee_name: 'Ana García López', fields: FIELDS });
    expect(created.status).toBe(200);
    const fields = created.body.fields as Placed[];
    expect(fields.map((f) => f.name)).toEqual(['campo_1', 'dni', 'acepta', 'campo_4', 'campo_5', 'campo_6']);
    expect(fields[0]!.resolved.map((r) => r.page)).toEqual([1, 2, 3]);
    // Anchors resolve on the page that holds them, at the match (the text sits 40 pt apart, from 82 pt down).
    expect(fields[1]!.resolved).toHaveLength(1);
    expect(fields[1]!.resolved[0]!.page).toBe(1);
    // {{dni}}'s baseline is 720 pt up a 842 pt page: its 12 pt glyphs start about 110 pt from the top.
    expect(fields[1]!.resolved[0]!.box.y).toBeGreaterThan((842 - 720 - 14) / 842);
    expect(fields[1]!.resolved[0]!.box.y).toBeLessThan((842 - 720) / 842);
    expect(fields[2]!.resolved.map((r) => r.page)).toEqual([2]);
    expect(fields[3]!.resolved.map((r) => r.page)).toEqual([3]);
    expect(fields[4]!.resolved).toEqual([{ page: 3, box: { x: 0.1, y: 0.2, w: 0.4, h: 0.1 } }]);
    const status = await api().get(`/firma/solicitudes/${created.body.request_id}/estado`).set('authorization', key);
    expect(status.body.fields).toEqual(fields);
    expect(status.body.field_values).toBeNull();

    const token = (created.body.signing_url as string).split('/').at(-1)!;
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => m.to.includes('ana@example.test') && /digo para firmar/.test(mailText(m))));

    // A required text field left empty, a value breaking the pattern, a required box not ticked: 422 by name, the code kept.
    const empty = await api().post(`/firma/firmar/${token}/confirmar`).send({ otp_code: code, declaration_accepted: true, campos: { acepta: true } });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0]).toMatchObject({ loc: ['body', 'campos', 'dni'] });
    const malformed = await api().post(`/firma/firmar/${token}/confirmar`).send({ otp_code: code, declaration_accepted: true, campos: { dni: '1234', acepta: true } });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0]).toMatchObject({ loc: ['body', 'campos', 'dni'], type: 'field_invalid' });
    const unticked = await api().post(`/firma/firmar/${token}/confirmar`).send({ otp_code: code, declaration_accepted: true, campos: { dni: '12345678Z' } });
    expect(unticked.status).toBe(422);
    expect(unticked.body.detail[0]).toMatchObject({ loc: ['body', 'campos', 'acepta'] });

    // The form encoding: campos[<name>]=…, a checkbox's `on`.
    const form = new URLSearchParams({ otp_code: code, declaration_accepted: 'true', firma_imagen_b64: strokePng(), 'campos[dni]': '12345678Z', 'campos[acepta]': 'on' });
    const signed = await api().post(`/firma/firmar/${token}/confirmar`).type('form').send(form.toString());
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({ status: 'signed', signature: { status: 'sealed' } });
    const after = await api().get(`/firma/solicitudes/${created.body.request_id}/estado`).set('authorization', key);
    expect(after.body.field_values).toEqual({ dni: '12345678Z', acepta: true });
    expect(after.body.otp_attempts_left).toBe(5);

    const copy = (await api().get(`/firma/documentos/${id}/signed-pdf`).set('authorization', key).buffer(true).parse(binary)).body as Buffer;
    const final = await eventually(async () => {
      const res = await api().get(`/firma/documentos/${id}/final-pdf`).set('authorization', key).buffer(true).parse(binary);
      return res.status === 200 ? (res.body as Buffer) : undefined;
    });
    const date = fieldDate(new Date(signed.body.signed_at), 'es');
    for (const pdf of [copy, final]) {
      expect((await verifyWithTools(pdf)).pdfsig.stdout).toContain('Signature is Valid');
      const words = await wordsOf(pdf);
      const expectAt = (text: string, page: number, box: Box) => {
        const hits = words.filter((w) => w.page === page && w.text === text);
        expect(hits.length).toBeGreaterThan(0);
        expect(hits.filter((w) => within(w, box))).toHaveLength(hits.length);
      };
      for (const { page, box } of fields[0]!.resolved) expectAt('AGL', page, box);
      expectAt('12345678Z', 1, fields[1]!.resolved[0]!.box);
      expectAt('X', 2, fields[2]!.resolved[0]!.box);
      expectAt(date, 3, fields[3]!.resolved[0]!.box);
      expectAt('López', 3, fields[5]!.resolved[0]!.box);
      // With a signature field the signee signs there: no block on the last page.
      expect(words.some((w) => w.page === 3 && w.text === 'electrónicamente')).toBe(false);
    }
    // The final PDF's audit certificate lists the values.
    const text = (await wordsOf(final)).filter((w) => w.page > 3).map((w) => w.text).join(' ');
    expect(text).toContain('DNI (dni): 12345678Z');
    expect(text).toContain('Acepto las condiciones (acepta): Sí / Yes');

    // Every pixel the seal changed lies inside a field's box, and the signature's ink is in its box.
    for (const page of [1, 2, 3]) {
      const before = await renderGray(lease, page);
      const now = await renderGray(copy, page);
      const boxes = fields.flatMap((f) => f.resolved.filter((r) => r.page === page).map((r) => ({ ...r.box, type: f.type })));
      let signatureInk = 0;
      for (let y = 0; y < now.height; y++) {
        for (let x = 0; x < now.width; x++) {
          const i = y * now.width + x;
          if (now.pixels[i] === before.pixels[i]) continue;
          const fx = (x + 0.5) / now.width;
          const fy = (y + 0.5) / now.height;
          const inBox = boxes.find((b) => fx >= b.x - 1.5 / now.width && fx <= b.x + b.w + 1.5 / now.width && fy >= b.y - 1.5 / now.height && fy <= b.y + b.h + 1.5 / now.height);
          expect({ page, x, y, inBox: Boolean(inBox) }).toEqual({ page, x, y, inBox: true });
          if (inBox?.type === 'signature' && now.pixels[i]! < 100) signatureInk++;
        }
      }
      if (page === 3) expect(signatureInk).toBeGreaterThan(40);
    }

    // Erasure removes the values with the document.
    await api().delete(`/firma/documentos/${id}`).set('authorization', key).expect(200);
    const { rows } = await env.rt.database.pool.query<{ field_values: unknown }>('select field_values from signing_requests where id = $1', [created.body.request_id]);
    expect(rows[0]!.field_values).toBeNull();
  });

  it('carries every signer\'s fields on the final PDF, each in its box, and pdfsig validates it', async () => {
    const id = await upload();
    const parties = [
      { email: 'uno@example.test', dni: '11111111H', box: { x: 0.1, y: 0.5, w: 0.3, h: 0.03 } },
      { email: 'dos@example.test', dni: '22222222J', box: { x: 0.5, y: 0.5, w: 0.3, h: 0.03 } },
    ];
    // Both asked first: the final PDF is built when the last of them signs.
    const tokens: string[] = [];
    for (const party of parties) {
      const created = await create({ document_id: id, signee_email: party.email, fields: [{ type: 'text', name: 'dni', label: 'DNI', page: 2, box: party.box }] });
      expect(created.status).toBe(200);
      tokens.push((created.body.signing_url as string).split('/').at(-1)!);
    }
    for (const [i, party] of parties.entries()) {
      const token = tokens[i]!;
      await api().get(`/firma/firmar/${token}/documento`).expect(200);
      await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
      const code = otpOf(await env.smtp.waitFor((m) => m.to.includes(party.email) && /digo para firmar/.test(mailText(m))));
      await api().post(`/firma/firmar/${token}/confirmar`).send({ otp_code: code, declaration_accepted: true, campos: { dni: party.dni } }).expect(200);
    }
    const final = await eventually(async () => {
      const res = await api().get(`/firma/documentos/${id}/final-pdf`).set('authorization', key).buffer(true).parse(binary);
      return res.status === 200 ? (res.body as Buffer) : undefined;
    });
    expect((await verifyWithTools(final)).pdfsig.stdout).toContain('Signature is Valid');
    const words = await wordsOf(final);
    for (const party of parties) {
      const hits = words.filter((w) => w.page === 2 && w.text === party.dni);
      expect(hits).toHaveLength(1);
      expect(within(hits[0]!, party.box)).toBe(true);
    }
    // Without a signature field, each keeps the block on the last page.
    expect(words.filter((w) => w.page === 3 && w.text === 'electrónicamente')).toHaveLength(2);
  });

  it('draws values beyond WinAnsi (Polish, the euro sign, Greek) in their boxes, in a DejaVu face embedded in the sealed copy', async () => {
    const id = await upload();
    const place = { x: 0.1, y: 0.45, w: 0.4, h: 0.03 };
    const nameBox = { x: 0.1, y: 0.55, w: 0.4, h: 0.03 };
    const fields = [
      { type: 'text', name: 'lugar', label: 'Lugar', page: 1, box: place },
      { type: 'name', page: 2, box: nameBox },
    ];
    const created = await create({ document_id: id, signee_email: 'sofia@example.test', signee_name: 'Σοφία Łukasiewicz', fields });
    expect(created.status).toBe(200);
    const token = (created.body.signing_url as string).split('/').at(-1)!;
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => m.to.includes('sofia@example.test') && /digo para firmar/.test(mailText(m))));
    await api().post(`/firma/firmar/${token}/confirmar`).send({ otp_code: code, declaration_accepted: true, campos: { lugar: 'Łódź €' } }).expect(200);
    const copy = (await api().get(`/firma/documentos/${id}/signed-pdf`).set('authorization', key).buffer(true).parse(binary)).body as Buffer;
    expect((await verifyWithTools(copy)).pdfsig.stdout).toContain('Signature is Valid');

    const dir = mkdtempSync(join(tmpdir(), 'fields-'));
    try {
      writeFileSync(join(dir, 'copy.pdf'), copy);
      const { stdout } = await run('pdffonts', [join(dir, 'copy.pdf')], { timeout: 30_000 });
      // name, type, encoding, then emb: the face's program is in the file, not left to the reader.
      expect(stdout).toMatch(/^DejaVuSans\S*\s+CID TrueType\s+Identity-H\s+yes\s/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const words = await wordsOf(copy);
    for (const [text, page, box] of [['Łódź', 1, place], ['€', 1, place], ['Σοφία', 2, nameBox], ['Łukasiewicz', 2, nameBox]] as const) {
      const hits = words.filter((w) => w.page === page && w.text === text);
      expect({ text, found: hits.length }).toEqual({ text, found: 1 });
      expect(within(hits[0]!, box)).toBe(true);
    }
  });

  it('takes drawn initials in JSON (iniciales_imagen_b64), refusing a bad PNG by name without using the code, and sets the image in every initials box', async () => {
    const id = await upload();
    const box = { x: 0.8, y: 0.05, w: 0.15, h: 0.05 };
    const created = await create({ document_id: id, signee_email: 'ines@example.test', signee_name: 'Inés Ortega', fields: [{ type: 'initials', page: 'all', box }] });
    expect(created.status).toBe(200);
    const token = (created.body.signing_url as string).split('/').at(-1)!;
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => m.to.includes('ines@example.test') && /digo para firmar/.test(mailText(m))));
    const bad = await api().post(`/firma/firmar/${token}/confirmar`).send({ otp_code: code, declaration_accepted: true, iniciales_imagen_b64: Buffer.from('not a png').toString('base64'), iniciales: 'IO' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'iniciales_imagen_b64'], type: 'png_invalid' });
    await api().post(`/firma/firmar/${token}/confirmar`).send({ otp_code: code, declaration_accepted: true, iniciales_imagen_b64: `data:image/png;base64,${strokePng()}`, iniciales: 'IO' }).expect(200);
    const copy = (await api().get(`/firma/documentos/${id}/signed-pdf`).set('authorization', key).buffer(true).parse(binary)).body as Buffer;
    expect((await verifyWithTools(copy)).pdfsig.stdout).toContain('Signature is Valid');
    // The drawing wins over the typed initials: no "IO" drawn, and the stroke's ink in each box.
    expect((await wordsOf(copy)).filter((w) => w.text === 'IO')).toEqual([]);
    for (const page of [1, 2, 3]) {
      const { width, height, pixels } = await renderGray(copy, page);
      let ink = 0;
      for (let y = Math.ceil(box.y * height); y < Math.floor((box.y + box.h) * height); y++) {
        for (let x = Math.ceil(box.x * width); x < Math.floor((box.x + box.w) * width); x++) if (pixels[y * width + x]! < 128) ink++;
      }
      expect({ page, inked: ink > 10 }).toEqual({ page, inked: true });
    }
  });

  it('answers 422 with the field\'s index in loc: a box outside the page, a page beyond the document, an anchor not found, more than 100 fields, an overlap with another recipient, a pattern RE2 refuses', async () => {
    const id = await upload();
    const base = { document_id: id, signee_email: 'b@example.test' };
    const sig = (box: Box, page: number | string = 1) => ({ type: 'signature', page, box });
    const cases: [unknown[], (string | number)[]][] = [
      [[sig({ x: 0.1, y: 0.1, w: 0.1, h: 0.1 }), sig({ x: 0.95, y: 0.5, w: 0.1, h: 0.1 })], ['body', 'fields', 1, 'box']],
      [[sig({ x: 0.1, y: 0.1, w: 0.1, h: 0.1 }), sig({ x: 0.1, y: 0.1, w: 0.1, h: 0.1 }, 4)], ['body', 'fields', 1, 'page']],
      [[{ type: 'date', anchor: '{{no-such-anchor}}' }], ['body', 'fields', 0, 'anchor']],
      [[{ type: 'date', anchor: '{{dni}}', page: 2 }], ['body', 'fields', 0, 'anchor']],
      [[{ type: 'date', anchor: '{{dni}}', offset: { x: 0.95, y: 0 } }], ['body', 'fields', 0, 'offset']],
      [Array.from({ length: 101 }, () => sig({ x: 0.1, y: 0.1, w: 0.1, h: 0.1 })), ['body', 'fields']],
      [[{ type: 'text', label: 'Ref', pattern: '(a)\\1', page: 1, box: { x: 0.1, y: 0.1, w: 0.1, h: 0.1 } }], ['body', 'fields', 0, 'pattern']],
      [[sig({ x: 0.1, y: 0.1, w: 0.1, h: 0.1 }), { ...sig({ x: 0.5, y: 0.1, w: 0.1, h: 0.1 }), name: 'campo_1' }], ['body', 'fields', 1, 'name']],
    ];
    for (const [fields, loc] of cases) {
      const res = await create({ ...base, fields });
      expect({ loc, status: res.status, first: res.body.detail?.[0]?.loc }).toEqual({ loc, status: 422, first: loc });
    }

    // Two recipients' fields on one page must not overlap; on another page, or apart, they may.
    expect((await create({ ...base, fields: [sig({ x: 0.1, y: 0.7, w: 0.3, h: 0.1 }, 'last')] })).status).toBe(200);
    const clash = await create({ document_id: id, signee_email: 'c@example.test', fields: [sig({ x: 0.6, y: 0.7, w: 0.3, h: 0.1 }), sig({ x: 0.35, y: 0.75, w: 0.3, h: 0.1 }, 3)] });
    expect(clash.status).toBe(422);
    expect(clash.body.detail[0].loc).toEqual(['body', 'fields', 1, 'box']);
    expect((await create({ document_id: id, signee_email: 'c@example.test', fields: [sig({ x: 0.55, y: 0.7, w: 0.3, h: 0.1 }, 3), sig({ x: 0.1, y: 0.7, w: 0.3, h: 0.1 }, 2)] })).status).toBe(200);

    // No fields: the record has no `fields` key, as before.
    const plain = await create({ document_id: id, signee_email: 'd@example.test' });
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.body).sort()).toEqual(['created_at', 'document_id', 'expires_at', 'order', 'request_id', 'role', 'signing_url', 'status']);
    // An empty array is no fields too; an approver or a cc takes none.
    const empty = await create({ document_id: id, signee_email: 'e@example.test', fields: [] });
    expect(Object.keys(empty.body)).not.toContain('fields');
    const approver = await create({ document_id: id, signee_email: 'f@example.test', role: 'approver', fields: [sig({ x: 0.1, y: 0.1, w: 0.1, h: 0.1 }, 2)] });
    expect([approver.status, approver.body.detail?.[0]?.loc]).toEqual([422, ['body', 'fields']]);
  });
});
