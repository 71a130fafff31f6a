import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The build's modules are plain JavaScript (they run before anything is compiled); these are the parts the spec calls. */
interface BuildDist {
  buildDist(options: { root: string; clean?: boolean }): Promise<string | null>;
}
interface BuildStamp {
  staleness(root: string, dist: string): string | null;
}
const { buildDist } = jest.requireActual<BuildDist>('./build-dist');
const { staleness } = jest.requireActual<BuildStamp>('./build-stamp');

const REPOSITORY = join(__dirname, '..', '..');

/** A small project laid out like this repository: decorators with metadata, a path alias, specs and testing helpers excluded. */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'ledger-build-'));
  symlinkSync(join(REPOSITORY, 'node_modules'), join(root, 'node_modules'));
  const files: Record<string, string> = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        module: 'commonjs',
        target: 'ES2022',
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        sourceMap: true,
        baseUrl: '.',
        outDir: 'dist',
        rootDir: '.',
        paths: { '@demo/kernel': ['libs/kernel/src'] },
      },
    }),
    'tsconfig.build.json': JSON.stringify({ extends: './tsconfig.json', include: ['apps', 'libs'], exclude: ['**/*.spec.ts', '**/testing/**'] }),
    'libs/kernel/src/index.ts': "export { Clock } from './clock';\n",
    'libs/kernel/src/clock.ts': 'export class Clock {\n  now(): number {\n    return 42;\n  }\n}\n',
    'libs/kernel/src/clock.spec.ts': "it('is excluded', () => undefined);\n",
    'libs/kernel/src/testing/fake-clock.ts': 'export const fake = 1;\n',
    'apps/demo/src/main.ts': [
      "import 'reflect-metadata';",
      "import { Clock } from '@demo/kernel';",
      'const inject = (): ParameterDecorator => () => undefined;',
      'const injectable = (): ClassDecorator => () => undefined;',
      '@injectable()',
      'export class Service {',
      '  constructor(@inject() readonly clock: Clock) {}',
      '}',
      "console.log(JSON.stringify({ now: new Service(new Clock()).clock.now(), paramtypes: Reflect.getMetadata('design:paramtypes', Service).map((type: Function) => type.name) }));",
      '',
    ].join('\n'),
  };
  for (const [file, text] of Object.entries(files)) write(root, file, text);
  return root;
}

function write(root: string, file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

const run = (root: string, file: string) => JSON.parse(execFileSync(process.execPath, [join(root, 'dist', file)], { encoding: 'utf8' }));

describe('the build (SWC, per file, only what changed)', () => {
  let root: string;
  let dist: string;

  beforeEach(async () => {
    root = project();
    dist = join(root, 'dist');
    expect(staleness(root, dist)).toBe('no build stamp in dist/');
    expect(await buildDist({ root })).toMatch(/compiled 3 of 3 files/);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('emits runnable CommonJS with decorator metadata and the path aliases resolved, and leaves excluded files out', () => {
    expect(run(root, 'apps/demo/src/main.js')).toEqual({ now: 42, paramtypes: ['Clock'] });
    expect(readFileSync(join(dist, 'apps/demo/src/main.js'), 'utf8')).toContain('require("../../../libs/kernel/src")');
    expect(existsSync(join(dist, 'apps/demo/src/main.js.map'))).toBe(true);
    expect(existsSync(join(dist, 'libs/kernel/src/clock.spec.js'))).toBe(false);
    expect(existsSync(join(dist, 'libs/kernel/src/testing/fake-clock.js'))).toBe(false);
  });

  it('finds nothing to do right after a build', async () => {
    expect(staleness(root, dist)).toBeNull();
    expect(await buildDist({ root })).toBeNull();
  });

  it('recompiles an edited source, and only that one', async () => {
    write(root, 'libs/kernel/src/clock.ts', 'export class Clock {\n  now(): number {\n    return 43;\n  }\n}\n');
    expect(staleness(root, dist)).toBe('libs/kernel/src/clock.ts changed');
    expect(await buildDist({ root })).toMatch(/compiled 1 of 3 files/);
    expect(run(root, 'apps/demo/src/main.js').now).toBe(43);
    expect(staleness(root, dist)).toBeNull();
  });

  it('compiles an edited file with the options kept in the stamp exactly as a clean build does', async () => {
    write(root, 'apps/demo/src/main.ts', readFileSync(join(root, 'apps/demo/src/main.ts'), 'utf8').replace('@injectable()', '@injectable()\n// edited'));
    expect(await buildDist({ root })).toMatch(/compiled 1 of 3 files/);
    const edited = readFileSync(join(dist, 'apps/demo/src/main.js'), 'utf8');
    expect(await buildDist({ root, clean: true })).toMatch(/compiled 3 of 3 files/);
    expect(readFileSync(join(dist, 'apps/demo/src/main.js'), 'utf8')).toBe(edited);
    expect(run(root, 'apps/demo/src/main.js')).toEqual({ now: 42, paramtypes: ['Clock'] });
  });

  it('sees an edit that keeps the size, by its modification time', async () => {
    const file = join(root, 'libs/kernel/src/clock.ts');
    write(root, 'libs/kernel/src/clock.ts', readFileSync(file, 'utf8').replace('42', '41'));
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(staleness(root, dist)).toBe('libs/kernel/src/clock.ts changed');
    await buildDist({ root });
    expect(run(root, 'apps/demo/src/main.js').now).toBe(41);
  });

  it('compiles a new source, and records a new excluded one without compiling it', async () => {
    write(root, 'libs/kernel/src/ids.ts', 'export const id = 7;\n');
    expect(staleness(root, dist)).toBe('libs/kernel/src/ids.ts is new');
    expect(await buildDist({ root })).toMatch(/compiled 1 of 4 files/);
    expect(existsSync(join(dist, 'libs/kernel/src/ids.js'))).toBe(true);

    write(root, 'libs/kernel/src/ids.spec.ts', "it('is excluded', () => undefined);\n");
    expect(staleness(root, dist)).toBe('libs/kernel/src/ids.spec.ts is new');
    expect(await buildDist({ root })).toMatch(/compiled 0 of 4 files/);
    expect(existsSync(join(dist, 'libs/kernel/src/ids.spec.js'))).toBe(false);
    expect(staleness(root, dist)).toBeNull();
  });

  it('deletes the outputs of a deleted source', async () => {
    write(root, 'libs/kernel/src/ids.ts', 'export const id = 7;\n');
    await buildDist({ root });
    rmSync(join(root, 'libs/kernel/src/ids.ts'));
    expect(staleness(root, dist)).toBe('libs/kernel/src/ids.ts was deleted');
    expect(await buildDist({ root })).toMatch(/compiled 0 of 3 files, removed 2 stale outputs/);
    expect(existsSync(join(dist, 'libs/kernel/src/ids.js'))).toBe(false);
    expect(existsSync(join(dist, 'libs/kernel/src/ids.js.map'))).toBe(false);
  });

  it("copies the console's static files as they are, and again when one is added, edited or deleted", async () => {
    write(root, 'apps/ledger/console/index.html', '<p>one</p>\n');
    expect(staleness(root, dist)).toBe('apps/ledger/console/index.html is new');
    expect(await buildDist({ root })).toMatch(/compiled 0 of 3 files/);
    expect(readFileSync(join(dist, 'apps/ledger/console/index.html'), 'utf8')).toBe('<p>one</p>\n');
    expect(staleness(root, dist)).toBeNull();

    write(root, 'apps/ledger/console/index.html', '<p>two!</p>\n');
    write(root, 'apps/ledger/console/js/page.js', 'export {};\n');
    expect(staleness(root, dist)).toMatch(/^apps\/ledger\/console\/.+ (changed|is new)$/);
    await buildDist({ root });
    expect(readFileSync(join(dist, 'apps/ledger/console/index.html'), 'utf8')).toBe('<p>two!</p>\n');
    expect(existsSync(join(dist, 'apps/ledger/console/js/page.js'))).toBe(true);
    // A copied script is no compiled file's orphan.
    expect(await buildDist({ root, clean: true })).toMatch(/compiled 3 of 3 files in/);
    expect(existsSync(join(dist, 'apps/ledger/console/js/page.js'))).toBe(true);

    rmSync(join(root, 'apps/ledger/console/js/page.js'));
    expect(staleness(root, dist)).toBe('apps/ledger/console/js/page.js was deleted');
    await buildDist({ root });
    expect(existsSync(join(dist, 'apps/ledger/console/js/page.js'))).toBe(false);
  });

  it('recompiles everything when the compiler options change', async () => {
    write(root, 'tsconfig.build.json', JSON.stringify({ extends: './tsconfig.json', include: ['apps', 'libs'], exclude: ['**/*.spec.ts'] }));
    expect(staleness(root, dist)).toBe('tsconfig.build.json changed');
    expect(await buildDist({ root })).toMatch(/compiled 4 of 4 files/);
    expect(existsSync(join(dist, 'libs/kernel/src/testing/fake-clock.js'))).toBe(true);
  });

  it('fails on a source that does not parse and stays stale until it is fixed', async () => {
    write(root, 'libs/kernel/src/clock.ts', 'export class Clock {\n');
    await expect(buildDist({ root })).rejects.toThrow(/clock\.ts/);
    expect(staleness(root, dist)).toBe('libs/kernel/src/clock.ts changed');
    write(root, 'libs/kernel/src/clock.ts', 'export class Clock {\n  now(): number {\n    return 44;\n  }\n}\n');
    await buildDist({ root });
    expect(run(root, 'apps/demo/src/main.js').now).toBe(44);
  });
});
