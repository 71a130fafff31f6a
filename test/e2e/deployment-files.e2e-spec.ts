import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { eventually } from '@ledger/processing/testing';
import { loadLedgerConfig } from '@ledger/config';
import { freePort } from '../support/ledger-process';
import { SCALE_OUT_REPLICAS } from '../support/scale-out';

const ROOT = join(__dirname, '..', '..');

interface ComposeService {
  readonly build?: { readonly dockerfile?: string };
  readonly environment?: Record<string, string>;
}

/**
 * The deployment files, checked as far as a machine without a Docker
 * daemon or registry allows: the compose file runs the replicas the
 * scale-out test runs as processes, each with settings the ledger accepts;
 * and the image's runtime stage, assembled from its own COPY lines without
 * Docker, starts the ledger, passes its own HEALTHCHECK and loads no
 * package that `npm prune --omit=dev` removes. (Not checked here: the build
 * stage's `npm ci` and `npm run build` inside node:20-bookworm-slim, which
 * need the image.)
 */
describe('the deployment files', () => {
  it("docker/compose.yml runs the scale-out test's replicas, each with settings the ledger accepts", async () => {
    // docker-compose's own reading of the file (anchors and merge keys resolved), as `.ci/run` validates it.
    const compose = load(await run('docker-compose', ['-f', join(ROOT, 'docker', 'compose.yml'), 'config'])) as { services: Record<string, ComposeService> };
    const ledgers = Object.entries(compose.services).filter(([, service]) => service.build?.dockerfile === 'docker/Dockerfile');
    const replicas = ledgers.map(([, service]) => ({ instance: service.environment?.LEDGER_INSTANCE_ID, roles: service.environment?.LEDGER_ROLES }));
    expect(replicas.sort(byInstance)).toEqual([...SCALE_OUT_REPLICAS].sort(byInstance));
    for (const [name, service] of ledgers) {
      const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, String(value ?? '')]));
      expect({ name, roles: loadLedgerConfig(env).roles.join(',') }).toEqual({ name, roles: service.environment?.LEDGER_ROLES });
    }
  });

  it("docker/Dockerfile's runtime stage starts the ledger from what it copies, passes its HEALTHCHECK and needs no dev dependency", async () => {
    const stage = runtimeStage(readFileSync(join(ROOT, 'docker', 'Dockerfile'), 'utf8'));
    const image = mkdtempSync(join(tmpdir(), 'ledger-image-'));
    const dataDir = mkdtempSync(join(tmpdir(), 'ledger-image-data-'));
    const loaded = join(image, 'loaded-packages.txt');
    try {
      for (const source of stage.copied) {
        // node_modules is the build stage's after `npm prune --omit=dev`: linked here, and what is loaded from it is checked below.
        if (source === 'node_modules') symlinkSync(join(ROOT, 'node_modules'), join(image, 'node_modules'));
        else cpSync(join(ROOT, source), join(image, source), { recursive: true });
      }
      const port = await freePort();
      const env = { PATH: process.env.PATH ?? '', ...stage.env, PORT: String(port), LEDGER_DATA_DIR: dataDir, LEDGER_TEST_LOADED_PACKAGES: loaded };
      const [command, ...args] = stage.cmd;
      const ledger = spawn(command === 'node' ? process.execPath : command, ['-r', join(__dirname, '../support/loaded-packages.preload.js'), ...args], {
        cwd: image,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      ledger.stdout.on('data', (chunk) => (output += chunk));
      ledger.stderr.on('data', (chunk) => (output += chunk));
      try {
        await eventually(async () => ledger.exitCode !== null || (await healthcheck(stage.healthcheck, env)) === 0, 60_000);
        expect({ exitCode: ledger.exitCode, output: ledger.exitCode === null ? '' : output }).toEqual({ exitCode: null, output: '' });
      } finally {
        const exited = once(ledger, 'exit');
        ledger.kill('SIGTERM');
        await exited;
      }
      const production = new Set(await npmLs(['--omit=dev']));
      const packages = readFileSync(loaded, 'utf8').split('\n').filter((dir) => dir !== '');
      expect(packages).toContain(join(ROOT, 'node_modules', '@nestjs', 'core'));
      expect(packages.filter((dir) => !production.has(dir))).toEqual([]);
    } finally {
      rmSync(image, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

const byInstance = (a: { instance?: string }, b: { instance?: string }) => String(a.instance).localeCompare(String(b.instance));

interface RuntimeStage {
  /** Paths under /app the stage copies from the build stage (the repository's own after the build). */
  readonly copied: readonly string[];
  readonly env: Record<string, string>;
  readonly cmd: readonly string[];
  /** The HEALTHCHECK's `node -e` script. */
  readonly healthcheck: string;
}

/** The last stage of a Dockerfile: its COPY --from=build sources, ENV, CMD (exec form) and HEALTHCHECK (`CMD node -e "…"`). */
function runtimeStage(dockerfile: string): RuntimeStage {
  const stage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const copied = [...stage.matchAll(/^COPY --from=build (.+)$/gm)].flatMap((match) => match[1].trim().split(/\s+/).slice(0, -1)).map((path) => path.replace(/^\/app\//, ''));
  const env = Object.fromEntries([...stage.matchAll(/^ENV (.+)$/gm)].flatMap((match) => [...match[1].matchAll(/(\w+)=(\S+)/g)].map((pair) => [pair[1], pair[2]])));
  const cmd = JSON.parse(/^CMD (\[.+\])$/m.exec(stage)?.[1] ?? '[]') as string[];
  const healthcheck = /^HEALTHCHECK .*CMD node -e "(.+)"$/m.exec(stage)?.[1] ?? '';
  return { copied, env, cmd, healthcheck };
}

/** Runs the HEALTHCHECK's script as Docker would, in the container's environment; its exit code. */
function healthcheck(script: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => execFile(process.execPath, ['-e', script], { env }, (error) => resolve(error ? Number(error.code ?? 1) : 0)));
}

/** `npm ls --all --parseable` with `flags`: the package directories of the repository's tree. */
async function npmLs(flags: readonly string[]): Promise<string[]> {
  return (await run('npm', ['ls', '--all', '--parseable', ...flags])).split('\n').filter(Boolean);
}

/** A command's stdout; npm ls exits non-zero on peer-dependency notes while still printing the tree, so any output counts. */
function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(command, [...args], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => (stdout ? resolve(stdout) : reject(new Error(`${command}: ${stderr || error?.message}`)))),
  );
}
