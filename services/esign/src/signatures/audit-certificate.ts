import { StandardFonts, rgb, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import { winAnsiText } from './winansi';

/** How a view was made: the PDF itself, or page images (and which page first). */
function viewedVia(e: { kind: string; details?: Record<string, unknown> | null }): string {
  if (e.kind !== 'document_viewed' || !e.details?.via) return '';
  return e.details.via === 'pages' && e.details.page !== undefined ? ` (via pages, p. ${String(e.details.page)})` : ` (via ${String(e.details.via)})`;
}

export interface CertificateData {
  documentId: string;
  title: string;
  filename: string;
  pages: number;
  sha256: string;
  createdAt: Date;
  tenant: string;
  /** Every recipient in signing order: signers (stamped), approvers (a text line) and cc (a copy). */
  signatures: {
    requestId: string;
    role: 'signer' | 'approver' | 'cc';
    order: number;
    name: string | null;
    email: string;
    signedAt: Date | null;
    /** A decline or a void, with its reason (`cancelled` only when the tenant voided it or a decline cancelled it). */
    closed?: { kind: 'declined' | 'cancelled'; at: Date; reason: string | null } | null;
    level: string;
    tsaTime: Date | null;
    signedSha256: string;
    /** What the signee filled in (text fields and checkboxes), in the request's field order. */
    fields?: { name: string; label: string; value: string | boolean }[];
  }[];
  events: { at: Date; kind: string; email: string | null; ip: string | null; userAgent: string | null; documentSha256: string; details?: Record<string, unknown> | null }[];
  verificationUrl: string;
  seal: { commonName: string; selfSigned: boolean; level: string };
  generatedAt: Date;
}

const ROLE_LABEL = { signer: 'firmante / signer', approver: 'aprobador / approver', cc: 'copia / cc' } as const;

const A4: [number, number] = [595.28, 841.89];
const LEFT = 48;
const RIGHT = A4[0] - 48;

/**
 * Appends the audit certificate: who signed, when, at which level, the hashes, every
 * audit event with time and address, and where to verify. Runs over as many pages as
 * the events need.
 */
export async function appendAuditCertificate(doc: PDFDocument, data: CertificateData): Promise<void> {
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const mono = await doc.embedFont(StandardFonts.Courier);
  let page: PDFPage = doc.addPage(A4);
  let y = A4[1] - 56;
  const newPageIfNeeded = (needed: number) => {
    if (y - needed < 48) {
      page = doc.addPage(A4);
      y = A4[1] - 56;
    }
  };
  const line = (text: string, options: { font?: PDFFont; size?: number; indent?: number; gap?: number } = {}) => {
    const font = options.font ?? regular;
    const size = options.size ?? 9;
    const x = LEFT + (options.indent ?? 0);
    for (const part of wrap(font, size, winAnsiText(font, text), RIGHT - x)) {
      newPageIfNeeded(size + 4);
      page.drawText(part, { x, y, size, font, color: rgb(0.1, 0.1, 0.1) });
      y -= size + (options.gap ?? 4);
    }
  };
  const iso = (d: Date | null) => (d ? `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC` : '-');

  line('Certificado de auditoría / Audit certificate', { font: bold, size: 16, gap: 10 });
  line(`Documento / Document: ${data.title}`, { font: bold, size: 10 });
  line(`ID: ${data.documentId}`);
  line(`Archivo / File: ${data.filename} (${data.pages} p.)`);
  line(`Emisor / Sender: ${data.tenant}`);
  line(`Subido / Uploaded: ${iso(data.createdAt)}`);
  line(`SHA-256 original: ${data.sha256}`, { font: mono, size: 8 });
  y -= 8;
  line('Firmas / Signatures', { font: bold, size: 12, gap: 6 });
  for (const s of data.signatures) {
    newPageIfNeeded(60);
    line(`${s.name ?? s.email} <${s.email}>`, { font: bold, size: 9.5 });
    line(`Solicitud / Request: ${s.requestId}   Orden / Order: ${s.order}   Rol / Role: ${ROLE_LABEL[s.role]}`, { indent: 10, size: 8.5 });
    if (s.closed) {
      const label = s.closed.kind === 'declined' ? 'Rechazado / Declined' : 'Anulado / Voided';
      line(`${label}: ${iso(s.closed.at)}${s.closed.reason ? `   Motivo / Reason: ${s.closed.reason}` : ''}`, { indent: 10, size: 8.5, gap: 8 });
    } else if (s.role === 'cc') {
      line('Recibe la copia final / Receives the final copy', { indent: 10, size: 8.5, gap: 8 });
    } else if (s.role === 'approver') {
      line(`Aprobado / Approved: ${iso(s.signedAt)} (código y declaración / code and declaration)`, { indent: 10, size: 8.5, gap: 8 });
    } else {
      line(`Firmado / Signed: ${iso(s.signedAt)}   Nivel / Level: PAdES ${s.level}${s.tsaTime ? `   TSA: ${iso(s.tsaTime)}` : ''}`, { indent: 10, size: 8.5 });
      line(`SHA-256 copia firmada / signed copy: ${s.signedSha256}`, { indent: 10, font: mono, size: 7.5, gap: s.fields?.length ? 4 : 8 });
      s.fields?.forEach((f, i) => {
        const value = f.value === true ? 'Sí / Yes' : f.value === false ? 'No' : f.value || '-';
        line(`${i === 0 ? 'Campos / Fields: ' : ''}${f.label} (${f.name}): ${value}`, { indent: i === 0 ? 10 : 20, size: 8.5, gap: i === s.fields!.length - 1 ? 8 : 4 });
      });
    }
  }
  y -= 4;
  line('Eventos / Events', { font: bold, size: 12, gap: 6 });
  for (const e of data.events) {
    newPageIfNeeded(30);
    line(`${iso(e.at)}  ${e.kind}${viewedVia(e)}${e.email ? `  ${e.email}` : ''}  IP ${e.ip ?? '-'}`, { size: 8.5 });
    if (e.userAgent) line(e.userAgent, { indent: 10, size: 7 });
    line(`SHA-256 ${e.documentSha256}`, { indent: 10, font: mono, size: 6.5, gap: 5 });
  }
  y -= 8;
  line('Verificación / Verification', { font: bold, size: 12, gap: 6 });
  line(data.verificationUrl, { font: mono, size: 8.5 });
  line(
    `Sellado por / Sealed by: ${data.seal.commonName}${data.seal.selfSigned ? ' (certificado autofirmado / self-signed certificate)' : ''}, PAdES ${data.seal.level}. Generado / Generated: ${iso(data.generatedAt)}`,
    { size: 8 },
  );
}

function wrap(font: PDFFont, size: number, text: string, width: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of text.split(/(\s+)/)) {
    const next = current + word;
    if (font.widthOfTextAtSize(next, size) <= width || current === '') {
      current = next;
      continue;
    }
    out.push(current.trimEnd());
    current = word.trimStart();
  }
  // A single word longer than the line (a long user agent) is cut by characters.
  const lines: string[] = [];
  for (const l of [...out, current.trimEnd()]) {
    let rest = l;
    while (font.widthOfTextAtSize(rest, size) > width && rest.length > 1) {
      let cut = rest.length;
      while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    lines.push(rest);
  }
  return lines.filter((l, i) => l !== '' || i === 0);
}

