import { sealPdf, type PadesLevel, type SigningIdentity, type TsaClient } from '@firma-riesgo/pdf-core';
import type { TReportContent } from './schemas';

export interface ReportSealDeps {
  identity: SigningIdentity;
  /** With a TSA the seal is PAdES B-T; a TSA failure fails the job (never a quiet B-B). */
  tsa?: TsaClient;
  clock: () => Date;
}

const REASONS = {
  es: (c: TReportContent) => `Informe mensual oficial ${c.report_id} (${c.municipio_id}, ${c.periodo}); SHA-256 de los datos ${c.data_sha256}`,
  en: (c: TReportContent) => `Official monthly report ${c.report_id} (${c.municipio_id}, ${c.periodo}); data SHA-256 ${c.data_sha256}`,
} as const;

/**
 * Seals a rendered report with the service's identity: an invisible PAdES signature over
 * the whole file, whose reason names the report and its data digest, so a reader can tell
 * both that the PDF was not altered and which data it was built from.
 */
export function createReportSealer(deps: ReportSealDeps) {
  return {
    level: (deps.tsa ? 'B-T' : 'B-B') as PadesLevel,
    async seal(pdf: Uint8Array, content: TReportContent): Promise<Buffer> {
      const sealed = await sealPdf(pdf, {
        identity: deps.identity,
        tsa: deps.tsa,
        signingTime: deps.clock(),
        reason: REASONS[content.lang](content),
        location: 'wildfire',
        fieldName: 'wildfire-report-seal',
      });
      return sealed.pdf;
    },
  };
}

export type ReportSealer = ReturnType<typeof createReportSealer>;
