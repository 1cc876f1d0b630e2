/**
 * Recommended preventive actions per danger class, as data: readiness of resources
 * (NFDRS staffing levels), machinery time windows (Oregon's Industrial Fire
 * Precaution Levels: at level II, spark-producing work only from 20:00 to 13:00),
 * public communication (AFDRS: one plain call to action per level) and access
 * restrictions. Each names its audience. They are recommendations; the regional
 * plan and its orders decide what is compulsory.
 */
import type { DangerClass } from './danger-classes';
import { SOURCES, type SourceId } from './sources';

export const ACTION_CATEGORIES = ['readiness', 'machinery', 'communication', 'access'] as const;
export const AUDIENCES = ['ayuntamiento', 'emergencias', 'ciudadania', 'sector_forestal_agricola'] as const;

export interface ActionRow {
  code: string;
  category: (typeof ACTION_CATEGORIES)[number];
  audience: (typeof AUDIENCES)[number];
  text: string;
  applies_to: readonly DangerClass[];
  source: SourceId;
}

const LOW: readonly DangerClass[] = ['very_low', 'low'];
const HIGH_UP: readonly DangerClass[] = ['high', 'very_high', 'extreme'];
const VERY_HIGH_UP: readonly DangerClass[] = ['very_high', 'extreme'];

export const ACTIONS: readonly ActionRow[] = [
  { code: 'readiness_routine', category: 'readiness', audience: 'emergencias', text: 'Dotación ordinaria; revisar medios y puntos de agua.', applies_to: LOW, source: 'nfdrs' },
  { code: 'readiness_moderate', category: 'readiness', audience: 'emergencias', text: 'Dotación ordinaria con vigilancia en las horas centrales del día.', applies_to: ['moderate'], source: 'nfdrs' },
  { code: 'readiness_high', category: 'readiness', audience: 'emergencias', text: 'Reforzar la vigilancia y tener los medios de primer ataque listos para salir.', applies_to: ['high'], source: 'nfdrs' },
  { code: 'readiness_max', category: 'readiness', audience: 'emergencias', text: 'Máxima disponibilidad de medios; prealerta del plan municipal de emergencias.', applies_to: VERY_HIGH_UP, source: 'nfdrs' },
  { code: 'readiness_council', category: 'readiness', audience: 'ayuntamiento', text: 'Confirmar el contacto con el servicio de extinción y la activación del plan de actuación municipal.', applies_to: VERY_HIGH_UP, source: 'nfdrs' },
  { code: 'machinery_routine', category: 'machinery', audience: 'sector_forestal_agricola', text: 'Sin restricción horaria por peligro; llevar extintor en los trabajos con maquinaria cerca del monte.', applies_to: LOW, source: 'ifpl' },
  { code: 'machinery_watch', category: 'machinery', audience: 'sector_forestal_agricola', text: 'Tras trabajar con maquinaria cerca del monte, vigilar la zona al menos 1 hora y llevar extintor.', applies_to: ['moderate'], source: 'ifpl' },
  { code: 'machinery_window', category: 'machinery', audience: 'sector_forestal_agricola', text: 'Trabajos con maquinaria que pueda producir chispas solo entre las 20:00 y las 13:00, con extintor y vigilancia posterior.', applies_to: ['high'], source: 'ifpl' },
  { code: 'machinery_stop', category: 'machinery', audience: 'sector_forestal_agricola', text: 'Parar la maquinaria que pueda producir chispas en el monte y a menos de 400 m (art. 48.6 d).', applies_to: VERY_HIGH_UP, source: 'ley_montes' },
  { code: 'communication_routine', category: 'communication', audience: 'ciudadania', text: 'Recordar las normas de uso del fuego y el teléfono 112.', applies_to: LOW, source: 'afdrs' },
  { code: 'communication_plan', category: 'communication', audience: 'ciudadania', text: 'Extremar la precaución con cualquier fuente de calor en el campo y el monte.', applies_to: ['moderate', 'high'], source: 'afdrs' },
  { code: 'communication_act', category: 'communication', audience: 'ciudadania', text: 'Difundir por los canales municipales las prohibiciones en vigor y cómo actuar ante un incendio.', applies_to: VERY_HIGH_UP, source: 'afdrs' },
  { code: 'access_inform', category: 'access', audience: 'ayuntamiento', text: 'Informar en los accesos a zonas forestales y áreas recreativas del nivel de peligro del día.', applies_to: HIGH_UP, source: 'afdrs' },
  { code: 'access_restrict', category: 'access', audience: 'ayuntamiento', text: 'Valorar restringir el acceso motorizado a pistas forestales y cerrar las áreas recreativas.', applies_to: VERY_HIGH_UP, source: 'nfdrs' },
  { code: 'access_open', category: 'access', audience: 'ayuntamiento', text: 'Sin restricciones de acceso por peligro de incendio.', applies_to: ['very_low', 'low', 'moderate'], source: 'afdrs' },
];

/** Every class has at least one action of each category (checked by the table's test). */
export function actionsFor(cls: DangerClass) {
  return ACTIONS.filter((a) => a.applies_to.includes(cls)).map((a) => ({
    code: a.code,
    category: a.category,
    audience: a.audience,
    text: a.text,
    source: SOURCES[a.source].url,
  }));
}
