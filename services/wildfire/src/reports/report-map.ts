/**
 * The province map of a PDF report: the territory of the report's province on the
 * municipality's worst day of the month (the last day with data when none stands out),
 * drawn by territory/map-svg.ts with the report's municipality ringed.
 *
 * What it shows is what the token that asked for the report may read: the report row keeps
 * that token's municipalities of the province (`map_municipios`; null: all of them), and the
 * territory is read as that token would read it (observed readings for a live token, the
 * synthetic series for a test token).
 */
import type { DataCaller } from '../municipalities/access';
import type { TerritoryService } from '../territory/service';
import { territoryMapSvg } from '../territory/map-svg';
import type { ReportMap } from './report-layout';
import type { ReportRow } from './repository';
import type { TReportContent } from './schemas';

/** The token's view of the report's province, as stored on the row: its municipalities there, sorted, or null for all. */
export function mapView(municipios: readonly string[] | null, municipioId: string): string[] | null {
  if (municipios === null) return null;
  const province = municipioId.slice(0, 2);
  return [...new Set(municipios.filter((m) => m.startsWith(province)))].sort();
}

/** Whether a stored report was made for the same view of its province. */
export const sameMapView = (a: readonly string[] | null, b: readonly string[] | null) =>
  a === null || b === null ? a === b : a.length === b.length && a.every((m, i) => m === b[i]);

export async function reportMap(territory: Pick<TerritoryService, 'territory'>, report: Pick<ReportRow, 'municipioId' | 'source' | 'mapMunicipios'>, content: TReportContent): Promise<ReportMap> {
  const date = content.worst_day?.date ?? content.days[content.days.length - 1]!.date;
  const caller: DataCaller = { type: report.source === 'synthetic' ? 'test' : 'live', municipios: report.mapMunicipios };
  const { rows, areaName, source } = await territory.territory(caller, { province: report.municipioId.slice(0, 2), date });
  const svg = [...territoryMapSvg(rows, { areaName, date, source, marked: report.municipioId })].join('');
  return { svg, date, drawn: rows.filter((r) => r.lat !== null && r.lon !== null).length, restricted: report.mapMunicipios !== null };
}
