/**
 * Where m3 reads a municipality's days from: the stored readings for live tokens, the
 * synthetic series for test tokens; the two never mix (as in readings/service.ts).
 */
import type { DateRange } from '../readings/date-range';
import type { Reading } from '../readings/reading';
import type { ReadingSource, ReadingsService } from '../readings/service';
import type { SyntheticData } from '../synthetic/synthetic-data';

export interface FwiHistory {
  source: ReadingSource;
  range(municipioId: string, from: string, to: string): Promise<Reading[]>;
  fwiInWindows(municipioId: string, windows: readonly DateRange[]): Promise<{ date: string; fwi: number }[]>;
}

export function storedHistory(readings: Pick<ReadingsService, 'storedRange' | 'storedFwiInWindows'>): FwiHistory {
  return { source: 'observed', range: readings.storedRange, fwiInWindows: readings.storedFwiInWindows };
}

export function syntheticHistory(synthetic: SyntheticData): FwiHistory {
  return {
    source: 'synthetic',
    range: async (id, from, to) => synthetic.readings(id, from, to),
    fwiInWindows: async (id, windows) => windows.flatMap((w) => synthetic.readings(id, w.from, w.to).map((r) => ({ date: r.date, fwi: r.fwi }))),
  };
}
