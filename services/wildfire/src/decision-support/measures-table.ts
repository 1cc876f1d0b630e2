/**
 * The measures m3 lists, as data. Each row names the danger classes it applies to
 * and its source (sources.ts). The six art. 48.6 rows paraphrase the bans the
 * article obliges the autonomous communities to adopt when the danger is "muy alto"
 * or "extremo" (Ley 43/2003 de Montes as amended by RDL 15/2022); the regional order
 * in force gives the exact wording. The general rows are prevention advice, not law.
 */
import type { SeasonOnDay } from '../seasons/service';
import { ART_48_6_CLASSES, DANGER_CLASS_CODES, type DangerClass } from './danger-classes';
import { SOURCES, type SourceId } from './sources';

export const ART_48_6_LEGAL_BASIS = 'Ley 43/2003 de Montes, art. 48.6';

export interface MeasureRow {
  code: string;
  title: string;
  description: string;
  applies_to: readonly DangerClass[];
  legal_basis: string | null;
  source: SourceId;
}

const BELOW_ART_48_6: readonly DangerClass[] = ['very_low', 'low', 'moderate', 'high'];

export const MEASURES: readonly MeasureRow[] = [
  { code: 'art48_6_a', title: 'Prohibido el uso del fuego en espacios abiertos', description: 'Prohibición del uso del fuego en espacios abiertos, (a) del art. 48.6.', applies_to: ART_48_6_CLASSES, legal_basis: ART_48_6_LEGAL_BASIS, source: 'ley_montes' },
  { code: 'art48_6_b', title: 'Suspendidas todas las autorizaciones de quema', description: 'Suspensión de todas las autorizaciones de quema concedidas o por conceder, (b) del art. 48.6.', applies_to: ART_48_6_CLASSES, legal_basis: ART_48_6_LEGAL_BASIS, source: 'ley_montes' },
  { code: 'art48_6_c', title: 'Prohibido el fuego en áreas recreativas', description: 'Prohibición de encender fuego en áreas recreativas y de acampada, incluidas barbacoas, (c) del art. 48.6.', applies_to: ART_48_6_CLASSES, legal_basis: ART_48_6_LEGAL_BASIS, source: 'ley_montes' },
  { code: 'art48_6_d', title: 'Prohibida la maquinaria que produzca chispas en el monte y a menos de 400 m', description: 'Prohibición del uso de maquinaria y equipos que puedan generar chispas o deflagraciones en el monte y en la franja de 400 m que lo rodea, (d) del art. 48.6.', applies_to: ART_48_6_CLASSES, legal_basis: ART_48_6_LEGAL_BASIS, source: 'ley_montes' },
  { code: 'art48_6_e', title: 'Prohibida la pirotecnia', description: 'Prohibición del lanzamiento de cohetes, fuegos artificiales y demás artículos pirotécnicos, (e) del art. 48.6.', applies_to: ART_48_6_CLASSES, legal_basis: ART_48_6_LEGAL_BASIS, source: 'ley_montes' },
  { code: 'art48_6_f', title: 'Prohibido arrojar objetos en combustión', description: 'Prohibición de arrojar o abandonar objetos en combustión o que puedan provocar un incendio, (f) del art. 48.6.', applies_to: ART_48_6_CLASSES, legal_basis: ART_48_6_LEGAL_BASIS, source: 'ley_montes' },
  { code: 'advice_burning', title: 'Quemas solo con autorización y según la normativa autonómica', description: 'Antes de quemar restos agrícolas o forestales, compruebe que tiene autorización y que el día la permite.', applies_to: BELOW_ART_48_6, legal_basis: null, source: 'miteco_prevention' },
  { code: 'advice_report', title: 'Avise al 112 de cualquier humo o fuego', description: 'Llame al 112 en cuanto vea humo o fuego, indicando el lugar con la mayor precisión posible.', applies_to: BELOW_ART_48_6, legal_basis: null, source: 'miteco_prevention' },
  { code: 'advice_litter', title: 'No deje colillas, vidrios ni basura en el monte', description: 'No arroje colillas ni deje vidrios o residuos en el monte o en las cunetas.', applies_to: BELOW_ART_48_6, legal_basis: null, source: 'miteco_prevention' },
  { code: 'advice_machinery', title: 'Precaución con la maquinaria cerca del monte', description: 'Con peligro alto, evite trabajos con maquinaria que pueda producir chispas cerca del monte en las horas centrales del día y lleve extintor.', applies_to: ['high'], legal_basis: null, source: 'miteco_prevention' },
];

/** A measure as m3 answers it. */
export interface M3Measure {
  code: string;
  title: string;
  description: string;
  applies_to: DangerClass[];
  legal_basis: string | null;
  source: string;
}

/** The measures of a danger class, in table order, with their source URL. */
export function measuresFor(cls: DangerClass): M3Measure[] {
  return MEASURES.filter((m) => m.applies_to.includes(cls)).map((m) => ({
    code: m.code,
    title: m.title,
    description: m.description,
    applies_to: [...m.applies_to],
    legal_basis: m.legal_basis,
    source: SOURCES[m.source].url,
  }));
}

/**
 * The standing measures of an época de peligro in force, whatever the day's class: the
 * seasons table (seasons/seasons-table.ts, or the operator's `ingest seasons` file)
 * gives them with the order or plan that sets them.
 */
export function seasonMeasures(season: SeasonOnDay): M3Measure[] {
  return season.measures.map((title, i) => ({
    code: `season_${season.communityCode}_${i + 1}`,
    title,
    description: `Medida de «${season.name ?? 'época de peligro'}» (${season.authority}), en vigor del ${season.from} al ${season.to}.`,
    applies_to: [...DANGER_CLASS_CODES],
    legal_basis: season.sourceTitle,
    source: season.sourceUrl ?? SOURCES.seasons.url,
  }));
}
