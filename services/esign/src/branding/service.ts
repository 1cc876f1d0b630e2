import { randomBytes } from 'node:crypto';
import { NotFoundError, ValidationError } from '../errors';
import { checkImages, isPng, type PdfWorkerPool } from '@firma-riesgo/pdf-core';
import type { EsignPrincipal } from '../keys/authenticate';
import { accessibleAccent } from './contrast';
import type { BrandingRepository, BrandingRow } from './repository';
import type { TBranding } from './schemas';

export const LOGO_MAX_BYTES = 256 * 1024;
export const LOGO_BOX = { width: 600, height: 200 } as const;
/**
 * Largest PNG logo decoded: 16 megapixels (4000×4000), read from its header before any
 * decoder sees it. 256 KiB of PNG can declare 20000×20000 (a 1-bit image of zeros deflates
 * a thousandfold), which would decode to 1.6 GB of RGBA.
 */
export const LOGO_MAX_PIXELS = 16_000_000;

/** What the signing page and the emails show of the sender; absent fields are the neutral look. */
export interface Sender {
  name: string;
  accentColor: string | null;
  /** Absolute URL of the logo, for emails. */
  logoUrl: string | null;
  /** Its path, for pages (same origin, as their CSP requires). */
  logoPath: string | null;
}

export interface BrandingDeps {
  repo: BrandingRepository;
  /** Logos are decoded (PNG) or rasterised (SVG) on the worker pool, never on the request thread. */
  pool: Pick<PdfWorkerPool, 'run'>;
  tenantName: (tenantId: string) => Promise<string>;
  publicUrl: string;
  clock: () => Date;
}

function kindOf(file: { buffer: Buffer; originalname: string; mimetype?: string }): 'png' | 'svg' {
  if (isPng(file.buffer)) return 'png';
  const head = file.buffer.subarray(0, 1024).toString('utf8').trimStart().toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return 'svg';
  throw ValidationError.single('form', 'logo', 'The logo must be a PNG or an SVG file', 'logo_type');
}

export function createBrandingService(deps: BrandingDeps) {
  const logoPath = (row: BrandingRow | null) => (row?.logoId ? `/firma/marca/logos/${row.logoId}` : null);
  const logoUrl = (row: BrandingRow | null) => (row?.logoId ? `${deps.publicUrl}${logoPath(row)}` : null);

  function record(tenant: string, row: BrandingRow | null): TBranding {
    return {
      tenant,
      display_name: row?.displayName ?? null,
      accent_color: row?.accentColor ?? null,
      accent_color_used: row?.accentColorUsed ?? null,
      logo_url: logoUrl(row),
      updated_at: row ? row.updatedAt.toISOString() : null,
    };
  }

  return {
    async get(principal: EsignPrincipal): Promise<TBranding> {
      return record(principal.tenant, await deps.repo.find(principal.tenantId));
    },

    /** Replaces the branding as a whole: a field left out is cleared, the logo included. */
    async put(principal: EsignPrincipal, input: { displayName?: string; accentColor?: string; logo?: { buffer: Buffer; originalname: string } }): Promise<TBranding> {
      let png: Buffer | null = null;
      if (input.logo) {
        if (input.logo.buffer.length > LOGO_MAX_BYTES) throw ValidationError.single('form', 'logo', `The logo is larger than ${LOGO_MAX_BYTES / 1024} KiB`, 'logo_too_large');
        const kind = kindOf(input.logo);
        // Header, chunks and CRCs checked and the pixels counted before the worker decodes anything.
        if (kind === 'png') checkImages([{ data: input.logo.buffer, name: input.logo.originalname }], 'logo', { maxPixels: LOGO_MAX_PIXELS });
        const out = await deps.pool.run(
          'logo-png',
          { data: input.logo.buffer, kind, field: 'logo', maxWidth: LOGO_BOX.width, maxHeight: LOGO_BOX.height },
          { timeoutMs: 4_000, client: `key:${principal.keyId}` },
        );
        png = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
      }
      const row = await deps.repo.put({
        tenantId: principal.tenantId,
        displayName: input.displayName ?? null,
        accentColor: input.accentColor ?? null,
        accentColorUsed: input.accentColor ? accessibleAccent(input.accentColor) : null,
        // A new name for every logo: caches of the old URL never show the new one.
        logoId: png ? `${randomBytes(18).toString('base64url')}.png` : null,
        logoPng: png,
        updatedAt: deps.clock(),
      });
      return record(principal.tenant, row);
    },

    async remove(principal: EsignPrincipal): Promise<void> {
      await deps.repo.remove(principal.tenantId);
    },

    /** Tenant erasure: the branding and the logo go (its public URL answers 404); true when there was some. */
    eraseTenant: (tenantId: string): Promise<boolean> => deps.repo.remove(tenantId),

    async logo(logoId: string): Promise<Buffer> {
      const png = await deps.repo.logo(logoId);
      if (!png) throw new NotFoundError('No such logo', 'LOGO_NOT_FOUND');
      return png;
    },

    /** The sender as signees see it: the display name (or the tenant name), accent and logo. */
    async sender(tenantId: string): Promise<Sender> {
      const row = await deps.repo.find(tenantId);
      return { name: row?.displayName ?? (await deps.tenantName(tenantId)), accentColor: row?.accentColorUsed ?? null, logoUrl: logoUrl(row), logoPath: logoPath(row) };
    },
  };
}

export type BrandingService = ReturnType<typeof createBrandingService>;
