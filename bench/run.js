#!/usr/bin/env node
'use strict';
// `npm run bench`: every bench/*.bench.js in turn (or those named on the command line).
// Each prints throughput and latency of a main path beside a baseline measured in the same
// run on the same machine, as a ratio. Needs the build (npm run build) and the real Postgres
// and Redis (started by scripts/ensure-services.sh).
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

async function main() {
  const only = process.argv.slice(2);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.js'))
    .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
    .sort();
  for (const file of files) await require(join(__dirname, file))();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
