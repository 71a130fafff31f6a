#!/usr/bin/env node
// `npm run demo`: the whole local stack in one command — the ledger on the
// embedded store under data/demo and a simulated fleet reporting to it —
// stopped together on Ctrl-C. It compiles what changed first, then runs both
// from dist/ through run.js, as `npm start` and `npm run simulate` do. It
// refuses a port something already listens on (another ledger there would
// answer /readyz for it), and says ready once every simulated host registered.
'use strict';
const { spawn } = require('node:child_process');
const { once } = require('node:events');
const net = require('node:net');
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
const host = process.env.HOST || '127.0.0.1';
const dataDir = path.resolve(options.dataDir ?? process.env.LEDGER_DATA_DIR ?? path.join(root, 'data', 'demo'));
const url = `http://127.0.0.1:${port}`;
const say = (line) => process.stdout.write(`demo: ${line}\n`);

const children = [];
let stopping = false;

/** Why `port` cannot be ours (another ledger there would answer /readyz as if it were), or undefined when it is free. */
async function portTaken() {
  const probe = net.createServer().listen(port, host);
  const [outcome] = await Promise.race([once(probe, 'listening').then(() => [undefined]), once(probe, 'error')]);
  if (outcome === undefined) {
    probe.close();
    await once(probe, 'close');
    return undefined;
  }
  return outcome.code === 'EADDRINUSE' ? `port ${port} on ${host} is taken (another ledger?): stop it, or move the demo with --port or PORT` : `cannot listen on ${host}:${port}: ${outcome.message}`;
}

/** Resolves once the fleet says every host registered; false if it never does (it exited, or the demo is stopping). */
function fleetRegistered(fleet, hosts) {
  const registered = new RegExp(`\\b${hosts}/${hosts} hosts registered`);
  let said = '';
  return new Promise((resolve) => {
    const watch = (chunk) => {
      said = (said + chunk.toString()).slice(-4096); // a line may arrive in two chunks
      if (!registered.test(said)) return;
      fleet.stdout.off('data', watch);
      fleet.stderr.off('data', watch);
      resolve(true);
    };
    // The simulator says it on stderr, where its progress goes.
    fleet.stdout.on('data', watch);
    fleet.stderr.on('data', watch);
    fleet.once('exit', () => resolve(false));
  });
}

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
  const taken = await portTaken();
  if (taken) {
    say(taken);
    process.exitCode = 1;
    return;
  }
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
  const fleet = start('fleet', ['simulate', '--hosts', String(options.hosts), '--ledger', url, '--data-dir', dataDir], {});
  if (!(await fleetRegistered(fleet, options.hosts))) return undefined;
  const token = path.join(dataDir, 'credentials', 'admin.token');
  say(`ready: ${options.hosts} simulated host(s) reporting to ${url}`);
  say(`  console:    ${url}/console`);
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
