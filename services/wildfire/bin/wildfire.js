#!/usr/bin/env node
'use strict';
// Thin launcher so the bin exists before the first build; the CLI itself is compiled TypeScript.
const path = require('node:path');
const fs = require('node:fs');
const cli = path.join(__dirname, '..', 'dist', 'cli.js');
if (!fs.existsSync(cli)) {
  console.error('wildfire: not built yet; run "npm run build" at the repository root first');
  process.exit(1);
}
require(cli).main();
