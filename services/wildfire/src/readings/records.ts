import { OUTPUT_DECIMALS } from '../fwi';
import type { Reading } from './reading';
import type { TProvenance, TReading } from './schemas';
import type { ReadingSource } from './service';

const round = (x: number, decimals: number) => Number(x.toFixed(decimals));

/** The API shape of a reading: FWI outputs to 4 decimals (as `wildfire fwi` prints them), the score to 6. */
export function readingBody(municipioId: string, r: Reading, source: ReadingSource, provenance?: TProvenance): TReading {
  const d = (x: number) => round(x, OUTPUT_DECIMALS);
  return {
    municipio_id: municipioId,
    date: r.date,
    risk_score: round(r.riskScore, 6),
    risk_label: r.riskLabel,
    fwi: d(r.fwi),
    ffmc: d(r.ffmc),
    dmc: d(r.dmc),
    dc: d(r.dc),
    isi: d(r.isi),
    bui: d(r.bui),
    dsr: d(r.dsr),
    temp: r.temp,
    rh: r.rh,
    ws: r.ws,
    prec: r.prec,
    source,
    ...(provenance ? { provenance } : {}),
  };
}
