import { formatFileVerification } from './cli-report';
import type { TFileVerification } from './schemas';

const revocation = (status: 'good' | 'revoked', revoked_at: string | null = null) => ({ status, source: 'fetched' as const, revoked_at, this_update: '2031-05-04T09:00:00.000Z' });

describe('esign verify: the chains in the text report', () => {
  it('prints each CA and the TSA chain with its revocation, besides the signer’s own line', () => {
    const report: TFileVerification = {
      validation_time: '2031-05-04T09:00:00.000Z',
      file_sha256: 'a'.repeat(64),
      valid: true,
      modified_after_last_signature: false,
      problems: [],
      known_document: null,
      signatures: [
        {
          field: 'sello',
          signer: 'Sello',
          signing_time: null,
          timestamp_time: '2031-05-01T09:00:00.000Z',
          level: 'B-T',
          integrity: true,
          signature_valid: true,
          covers_document: true,
          ess_certificate_matches: true,
          timestamp_valid: true,
          certificate: null,
          problems: [],
          kind: 'signature',
          detected_level: 'B-T',
          chain_trusted: true,
          indication: 'TOTAL_FAILED',
          sub_indication: 'REVOKED',
          revocation: revocation('good'),
          chain_revocation: [
            { chain: 'signer', depth: 0, subject: 'CN=Sello', serial: '2000', sha256: 'b'.repeat(64), ...revocation('good') },
            { chain: 'signer', depth: 1, subject: 'CN=Intermedia', serial: '1000', sha256: 'c'.repeat(64), ...revocation('revoked', '2031-04-01T00:00:00.000Z') },
            { chain: 'signature_timestamp', depth: 0, subject: 'CN=TSA', serial: '1001', sha256: 'd'.repeat(64), ...revocation('good') },
          ],
          poe_time: '2031-05-01T09:00:00.000Z',
        },
      ],
    };
    const text = formatFileVerification(report);
    expect(text).toContain('  revocation good (fetched), proof of existence 2031-05-01T09:00:00.000Z');
    expect(text).toContain('  signer chain, depth 1: CN=Intermedia: revocation revoked at 2031-04-01T00:00:00.000Z (fetched)');
    expect(text).toContain('  timestamp TSA chain, depth 0: CN=TSA: revocation good (fetched)');
    expect(text).not.toContain('CN=Sello: revocation');
  });
});
