/**
 * A weather file read for an ingestion: its rows in columns (weather-stream.ts) and the
 * first line of each municipality code, so that an unknown code is refused at its first
 * line once the codes are looked up; or the first bad row. `readWeatherFile` reads it on
 * this thread. `startReadingWeatherFile` reads it on a worker thread
 * (weather-file-worker.ts): `wildfire ingest weather` starts it before the runtime, so the
 * file is parsed on one core while the other loads the CLI's modules and opens the database.
 */
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CsvInputError } from '../csv-input';
import { WeatherColumns, type WeatherColumnsParts } from './weather-columns';
import { weatherColumnsOf } from './weather-stream';

export interface WeatherFileRead {
  /** The rows, when the whole file is valid. */
  weather?: WeatherColumns;
  /** Each municipality code met before the end or the first bad row, with the line it first appears on. */
  firstLine: Map<string, number>;
  /** Why the file was refused: the first bad row (CsvInputError), a missing file (`code` ENOENT), or another read error. */
  failure?: unknown;
}

/** Reads `path` on this thread; `today` is the latest day a row may have. Never rejects: a refusal is `failure`. */
export async function readWeatherFile(path: string, today: string): Promise<WeatherFileRead> {
  const firstLine = new Map<string, number>();
  // Every code is accepted while the file is read; the caller looks them all up in one query afterwards.
  const noted = (code: string, line: number) => {
    if (!firstLine.has(code)) firstLine.set(code, line);
    return true;
  };
  try {
    return { weather: await weatherColumnsOf(path, { isKnown: noted, today }), firstLine };
  } catch (failure) {
    return { firstLine, failure };
  }
}

/** What the worker posts back: the columns' parts (their buffers transferred), the codes' first lines and the failure, if any. */
export interface WeatherFileMessage {
  weather?: WeatherColumnsParts;
  firstLine: [string, number][];
  failure?: { csv: true; message: string; line: number; column?: string } | { csv: false; message: string; code?: string };
}

/** The worker's message for a read (weather-file-worker.ts) and the buffers it transfers. */
export function weatherFileMessage(read: WeatherFileRead): { message: WeatherFileMessage; transfer: ArrayBuffer[] } {
  const columns = read.weather?.parts();
  const failure = read.failure;
  return {
    message: {
      weather: columns?.parts,
      firstLine: [...read.firstLine],
      failure:
        failure === undefined
          ? undefined
          : failure instanceof CsvInputError
            ? { csv: true, message: failure.message, line: failure.line, column: failure.column }
            : { csv: false, message: (failure as Error).message ?? String(failure), code: (failure as NodeJS.ErrnoException).code },
    },
    transfer: columns?.transfer ?? [],
  };
}

function readOfMessage(message: WeatherFileMessage): WeatherFileRead {
  const { failure } = message;
  let error: Error | undefined;
  if (failure?.csv) error = new CsvInputError(failure.message, failure.line, failure.column);
  else if (failure) error = Object.assign(new Error(failure.message), failure.code === undefined ? {} : { code: failure.code });
  return { weather: message.weather && WeatherColumns.fromParts(message.weather), firstLine: new Map(message.firstLine), failure: error };
}

/** The compiled worker script: from src (jest) and from dist alike, `../../dist/readings`. */
export const WEATHER_FILE_WORKER = resolve(__dirname, '../../dist/readings/weather-file-worker.js');

export interface WeatherFileReading {
  /** Settles as `readWeatherFile` would; rejects only when the worker itself fails. */
  read: Promise<WeatherFileRead>;
  /** Stops the worker (the caller gave up, e.g. the runtime did not start). */
  cancel(): Promise<void>;
}

/** Starts reading `path` on a worker thread, as `readWeatherFile(path, today)` would on this one. */
export function startReadingWeatherFile(path: string, today: string): WeatherFileReading {
  const worker = new Worker(WEATHER_FILE_WORKER, { workerData: { path, today } });
  const read = new Promise<WeatherFileRead>((resolve, reject) => {
    worker.once('message', (message: WeatherFileMessage) => resolve(readOfMessage(message)));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the weather file reader stopped (exit code ${code}) before it answered`)));
  });
  // A caller that cancels never awaits the read: its rejection must not go unhandled.
  read.catch(() => undefined);
  return { read, cancel: () => worker.terminate().then(() => undefined) };
}
