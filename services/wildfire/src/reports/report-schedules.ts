/**
 * `wildfire reports schedule|schedules|unschedule`: which accounts get which monthly
 * reports without asking. Scheduled reports are of observed data (the live series), so
 * they follow the account's active live tokens: the account must have at least one, and
 * each municipality must be one those tokens may read (any municipality when one of them
 * has no municipality list). Validation is all or nothing: one bad code stores nothing.
 */
import type { MunicipalitiesService } from '../municipalities/service';
import type { TokenRecord } from '../tokens/repository';
import type { TokensService } from '../tokens/service';
import type { ReportsRepository } from './repository';
import type { ReportScheduleRow } from './schedules-repository';
import { ScheduleInputError } from './schedule-input-error';
import { REPORT_FORMATS, REPORT_LANGS } from './tables';

export { ScheduleInputError };

export type ReportFormat = (typeof REPORT_FORMATS)[number];
export type ReportLang = (typeof REPORT_LANGS)[number];

/** The municipalities an account's active live tokens may read: null for every one; an empty set when it has no active live token. */
export function schedulableMunicipios(tokens: readonly TokenRecord[], now: Date): Set<string> | null {
  const active = tokens.filter((t) => t.type === 'live' && !t.revokedAt && (!t.expiresAt || t.expiresAt.getTime() > now.getTime()));
  if (active.some((t) => t.municipios === null)) return null;
  return new Set(active.flatMap((t) => t.municipios ?? []));
}

export interface ScheduleRecord {
  account: string;
  municipio_id: string;
  format: ReportFormat;
  lang: ReportLang;
  created_at: string;
}

export interface ReportSchedulesDeps {
  repo: Pick<ReportsRepository, 'addSchedules' | 'listSchedules' | 'removeSchedules'>;
  tokens: Pick<TokensService, 'list'>;
  municipalities: Pick<MunicipalitiesService, 'names'>;
  clock: () => Date;
}

const INE_CODE = /^\d{5}$/;

export function createReportSchedules(deps: ReportSchedulesDeps) {
  /** The account's id and its tokens; ScheduleInputError when no token names it. */
  async function account(name: string): Promise<{ id: string; tokens: TokenRecord[] }> {
    const tokens = await deps.tokens.list(name);
    if (tokens.length === 0) throw new ScheduleInputError('account', `no account is named "${name}" (accounts are created with their first token)`);
    return { id: tokens[0]!.accountId, tokens };
  }

  function format(value: string | undefined): ReportFormat {
    const f = value ?? 'pdf';
    if (!(REPORT_FORMATS as readonly string[]).includes(f)) throw new ScheduleInputError('format', `must be one of ${REPORT_FORMATS.join(', ')}, got "${f}"`);
    return f as ReportFormat;
  }

  function lang(value: string | undefined): ReportLang {
    const l = value ?? 'es';
    if (!(REPORT_LANGS as readonly string[]).includes(l)) throw new ScheduleInputError('lang', `must be one of ${REPORT_LANGS.join(', ')}, got "${l}"`);
    return l as ReportLang;
  }

  function codes(municipios: readonly string[]): string[] {
    if (municipios.length === 0) throw new ScheduleInputError('municipios', 'name at least one 5-digit INE code');
    const bad = municipios.find((c) => !INE_CODE.test(c));
    if (bad !== undefined) throw new ScheduleInputError('municipios', `"${bad}" is not a 5-digit INE code`);
    return [...new Set(municipios)];
  }

  return {
    /** Adds the account's monthly report of each municipality; returns those added and those already scheduled. */
    async schedule(input: { account: string; municipios: readonly string[]; format?: string; lang?: string }) {
      const wanted = codes(input.municipios);
      const f = format(input.format);
      const l = lang(input.lang);
      const { id, tokens } = await account(input.account);
      const now = deps.clock();
      const allowed = schedulableMunicipios(tokens, now);
      if (allowed !== null && allowed.size === 0) {
        throw new ScheduleInputError('account', `account "${input.account}" has no active live token; scheduled reports are of observed data and need one`);
      }
      for (const code of wanted) {
        if (!(await deps.municipalities.names(code))) throw new ScheduleInputError('municipios', `no municipality has the INE code ${code}`);
        if (allowed !== null && !allowed.has(code)) {
          throw new ScheduleInputError('municipios', `the live tokens of account "${input.account}" may not read municipality ${code} (they are restricted to ${[...allowed].sort().join(', ')})`);
        }
      }
      const added = await deps.repo.addSchedules(
        wanted.map((municipioId) => ({ accountId: id, municipioId, format: f, lang: l })),
        now,
      );
      const addedSet = new Set(added);
      return { account: input.account, format: f, lang: l, added: wanted.filter((c) => addedSet.has(c)), already: wanted.filter((c) => !addedSet.has(c)) };
    },

    /** Every schedule, or one account's (ScheduleInputError for an unknown account). */
    async list(accountName?: string): Promise<ScheduleRecord[]> {
      const accountId = accountName === undefined ? undefined : (await account(accountName)).id;
      const rows = await deps.repo.listSchedules(accountId);
      const names = new Map((await deps.tokens.list(accountName)).map((t) => [t.accountId, t.account]));
      return rows
        .map((r) => recordOf(r, names.get(r.accountId) ?? r.accountId))
        .sort((a, b) => a.account.localeCompare(b.account) || a.municipio_id.localeCompare(b.municipio_id) || a.format.localeCompare(b.format) || a.lang.localeCompare(b.lang));
    },

    /** Removes the account's schedules of these municipalities (or all of them), of one format or language when given. */
    async unschedule(input: { account: string; municipios: readonly string[] | 'all'; format?: string; lang?: string }): Promise<ScheduleRecord[]> {
      const municipios = input.municipios === 'all' ? undefined : codes(input.municipios);
      const filter = { municipios, format: input.format === undefined ? undefined : format(input.format), lang: input.lang === undefined ? undefined : lang(input.lang) };
      const { id } = await account(input.account);
      const removed = await deps.repo.removeSchedules(id, filter);
      return removed.map((r) => recordOf(r, input.account));
    },
  };
}

function recordOf(row: ReportScheduleRow, account: string): ScheduleRecord {
  return { account, municipio_id: row.municipioId, format: row.format, lang: row.lang, created_at: row.createdAt.toISOString() };
}

export type ReportSchedules = ReturnType<typeof createReportSchedules>;
