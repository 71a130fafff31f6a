#!/usr/bin/env node
// `npm run demo`: the whole local stack in one command — the ledger on the
// embedded store under data/demo and a simulated fleet reporting to it —
// stopped together on Ctrl-C. It compiles what changed first, then runs both
// from dist/ through run.js, as `npm start` and `npm run simulate` do.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');
const { Command, InvalidArgumentError } = require('commander');
const { stopWithNpm } = require('./stop-with-npm');

const root = path.resolve(__dirname, '..');
const runJs = path.join(root, 'scripts', 'run.js');
const READY_TIMEOUT_MS = 120_000;

function positiveInteger(max) {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) throw new InvalidArgumentError(`expected an integer from 1 to ${max}`);
    return Number(value);
  };
}

const options = new Command('demo')
  .description('The ledger and a simulated fleet, together, until Ctrl-C')
  .option('--hosts <n>', 'simulated hosts (sim-00001 …), each with the simulated driver', positiveInteger(10_000), 3)
  .option('--port <port>', 'the ledger port (default: PORT or 8666)', positiveInteger(65_535))
  .option('--data-dir <dir>', 'where the ledger keeps its files (default: LEDGER_DATA_DIR or data/demo)')
  .parse(process.argv)
  .opts();

const port = options.port ?? Number(process.env.PORT ?? 8666);
const dataDir = path.resolve(options.dataDir ?? process.env.LEDGER_DATA_DIR ?? path.join(root, 'data', 'demo'));
const url = `http://127.0.0.1:${port}`;
const say = (line) => process.stdout.write(`demo: ${line}\n`);

const children = [];
let stopping = false;

function start(name, args, env) {
  const child = spawn(process.execPath, [runJs, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = (chunk) =>
    chunk
      .toString()
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => `[${name}] ${line}\n`)
      .join('');
  child.stdout.on('data', (chunk) => process.stdout.write(prefix(chunk)));
  child.stderr.on('data', (chunk) => process.stderr.write(prefix(chunk)));
  child.on('exit', (code, signal) => {
    if (stopping) return;
    say(`${name} exited (${signal ?? `code ${code}`}); stopping the rest`);
    stop(1);
  });
  children.push(child);
  return child;
}

async function waitUntilReady() {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && !stopping) {
    const ready = await fetch(`${url}/readyz`).then((response) => response.ok, () => false);
    if (ready) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

function stop(code) {
  if (stopping) return;
  stopping = true;
  const alive = children.filter((child) => child.exitCode === null && child.signalCode === null);
  let left = alive.length;
  if (left === 0) process.exit(code);
  // The fleet first, so the ledger does not record the hosts lost on its way down.
  for (const child of alive.reverse()) {
    child.once('exit', () => {
      if (--left === 0) process.exit(code);
    });
    child.kill('SIGTERM');
  }
}

process.on('SIGINT', () => stop(0)).on('SIGTERM', () => stop(0));
stopWithNpm();

async function main() {
  const built = await require('./build/build-dist').buildDist();
  if (built) say(built);
  say(`ledger on ${url}, data in ${dataDir}`);
  start('ledger', ['ledger'], {
    PORT: String(port),
    LEDGER_DATA_DIR: dataDir,
    LEDGER_LOG_LEVEL: process.env.LEDGER_LOG_LEVEL ?? 'warn',
    // The ledger's stdout is this pipe, so it would write JSON: pretty lines when the demo's own output is a terminal.
    LEDGER_LOG_FORMAT: process.env.LEDGER_LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json'),
  });
  if (!(await waitUntilReady())) {
    if (!stopping) say(`the ledger did not become ready on ${url} within ${READY_TIMEOUT_MS / 1000} s`);
    return stop(1);
  }
  start('fleet', ['simulate', '--hosts', String(options.hosts), '--ledger', url, '--data-dir', dataDir], {});
  const token = path.join(dataDir, 'credentials', 'admin.token');
  say(`ready: ${options.hosts} simulated host(s) reporting to ${url}`);
  say(`  API docs:   ${url}/docs`);
  say(`  admin:      ADMIN=$(cat ${path.relative(process.cwd(), token) || token})`);
  say(`  try:        curl -s -H "X-Auth-Token: $ADMIN" ${url}/api/v1/hosts`);
  say(`              LEDGER_URL=${url} LEDGER_DATA_DIR=${dataDir} npm run ledgerctl -- service-list`);
  say('Ctrl-C stops everything');
}

main().catch((error) => {
  say(`failed: ${error && error.stack ? error.stack : String(error)}`);
  stop(1);
});
