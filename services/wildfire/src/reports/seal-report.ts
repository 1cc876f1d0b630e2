import { createOutboundCheck } from '@firma-riesgo/auth';
import { createRevocationClient, sealPdf, withLocalRevocation, type PadesLevel, type RevocationClient, type SigningIdentity, type TsaClient } from '@firma-riesgo/pdf-core';
import type { WildfireConfig } from '../config';
import type { TReportContent } from './schemas';

export interface ReportSealDeps {
  identity: SigningIdentity;
  /** With a TSA the seal is PAdES B-T; a TSA failure fails the job (never a quiet B-B). */
  tsa?: TsaClient;
  /** WILDFIRE_PADES_LEVEL: every seal reaches it or the job fails (and is retried). */
  level: PadesLevel;
  /** Fetches the revocation data B-LT and B-LTA put in the DSS. */
  revocation?: RevocationClient;
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
    level: deps.level,
    async seal(pdf: Uint8Array, content: TReportContent): Promise<Buffer> {
      const sealed = await sealPdf(pdf, {
        identity: deps.identity,
        tsa: deps.tsa,
        level: deps.level,
        revocation: deps.revocation,
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

/**
 * The revocation client of report seals: the service's own local root answered in-process,
 * every other certificate's OCSP or CRL fetched from public addresses only (and the hosts of
 * WILDFIRE_REVOCATION_ALLOWLIST), plain http allowed as OCSP and CRLs are served over it.
 */
export function reportRevocationClient(config: Pick<WildfireConfig, 'signing'>, identity: SigningIdentity): RevocationClient {
  const { revocation } = config.signing;
  const check = createOutboundCheck({ allowPrivate: false, allowHttp: true, allowedHosts: revocation.allowedHosts });
  return withLocalRevocation(identity, createRevocationClient({ timeoutMs: revocation.timeoutMs, check }));
}
