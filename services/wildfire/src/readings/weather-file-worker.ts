/** The worker thread of `startReadingWeatherFile` (weather-file.ts): reads one weather file and posts what it read. */
import { parentPort, workerData } from 'node:worker_threads';
import { readWeatherFile, weatherFileMessage } from './weather-file';

const port = parentPort;
if (!port) throw new Error('weather-file-worker.js runs only as a worker thread');
const { path, today } = workerData as { path: string; today: string };
void readWeatherFile(path, today).then((read) => {
  const { message, transfer } = weatherFileMessage(read);
  port.postMessage(message, transfer);
});
