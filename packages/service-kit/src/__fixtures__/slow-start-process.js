'use strict';
/**
 * A service process whose start takes a while, for run-service-process.test.ts: it prints
 * "starting" when its start begins, is released after START_MS, and prints "closed" when
 * its runtime is closed by the shutdown. Loads the compiled package, as an entry point does.
 */
const { createLogger, runServiceProcess } = require('../../dist');

const START_MS = Number(process.env.START_MS || 1500);

void runServiceProcess(
  {
    service: 'slow',
    loadConfig: () => ({}),
    async start() {
      process.stdout.write('starting\n');
      await new Promise((resolve) => setTimeout(resolve, START_MS));
      return {
        logger: createLogger({ service: 'slow', level: 'silent' }),
        version: '0.0.0',
        database: { description: 'none' },
        jobs: { mode: 'in-process' },
        close: async () => void process.stdout.write('closed\n'),
      };
    },
  },
  'worker',
);
