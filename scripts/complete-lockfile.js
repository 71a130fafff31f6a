#!/usr/bin/env node
// `npm ci` refuses a lock file that lacks an entry for any optional dependency,
// even one for another platform. The registry these machines reach does not
// serve every platform's prebuilt binaries (e.g. @unrs/resolver-binding-* for
// Android or Windows, optional dependencies of Jest's resolver), so `npm install`
// leaves them out of package-lock.json and a clean `npm ci` then fails.
// This adds a bare, optional entry for each one missing; npm skips them at
// install time, as it skips any optional package it cannot fetch.
// Run it after every `npm install` that changes package-lock.json: npm run lock:complete
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages ?? {};
let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ''}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    packages[`node_modules/${name}`] = { version: version.replace(/^[\^~]/, ''), optional: true };
    added++;
  }
}
if (added > 0) {
  lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
  fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
}
console.error(`complete-lockfile: ${added} missing optional ${added === 1 ? 'entry' : 'entries'} added`);
