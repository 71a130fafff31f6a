import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { kernelEmulator, type KernelEmulatorOptions } from '../../discovery/testing/kernel-emulator';
import { copyFixture, recordingLogger, type FixtureCopy, type SysfsFixtureName } from '../../discovery/testing/sysfs-fixtures';
import { SysfsReader } from '../../discovery/sysfs-reader';
import type { DriverContext } from '../driver-context';
import { runCommand, type RunCommand } from '../run-command';

/** Images a fake image service serves: `add` returns the job's `image` param for it. */
export interface ImageServer {
  readonly fetch: typeof fetch;
  readonly requested: string[];
  add(name: string, content: string): { url: string; sha256: string };
}

export function imageServer(): ImageServer {
  const images = new Map<string, string>();
  const requested: string[] = [];
  return {
    requested,
    fetch: (async (input: string | URL | Request) => {
      const url = String(input);
      requested.push(url);
      const body = images.get(url);
      return body === undefined ? new Response('no such image', { status: 404, statusText: 'Not Found' }) : new Response(body);
    }) as typeof fetch,
    add(name, content) {
      const url = `http://images.test/v2/images/${name}/file`;
      images.set(url, content);
      return { url, sha256: createHash('sha256').update(content).digest('hex') };
    },
  };
}

export interface FixtureDriverContext {
  readonly copy: FixtureCopy;
  readonly context: DriverContext;
  readonly warnings: string[];
  /** Every vendor tool run: command and arguments. */
  readonly commands: { readonly command: string; readonly args: readonly string[] }[];
  readonly images: ImageServer;
  cleanup(): Promise<void>;
}

/**
 * A driver context on a private copy of a fixture host: sysfs writes go
 * through the kernel emulator, vendor tools are the fixture's fakes
 * (really run), images come from an in-memory image service.
 */
export async function fixtureDriverContext(name: SysfsFixtureName, kernel: KernelEmulatorOptions = {}): Promise<FixtureDriverContext> {
  const copy = await copyFixture(name);
  const logger = recordingLogger();
  const commands: { command: string; args: readonly string[] }[] = [];
  const recordingRun: RunCommand = (command, args, options) => {
    commands.push({ command, args });
    return runCommand(command, args, options);
  };
  const images = imageServer();
  const sysfs = new SysfsReader({ root: copy.root, logger, write: kernelEmulator(copy.root, kernel), scanReuseMs: 0 });
  const context: DriverContext = {
    sysfs,
    logger,
    runCommand: recordingRun,
    fetch: images.fetch,
    sleep: async () => undefined,
    hostname: 'compute-1',
    workDir: join(copy.dir, 'work'),
    playbooks: { install: `/playbooks/${name}/install.yml`, uninstall: `/playbooks/${name}/uninstall.yml` },
  };
  return { copy, context, warnings: logger.warnings, commands, images, cleanup: copy.remove };
}

/** The DriverOperationError a promise rejects with, for matching its code, state and evidence. */
export async function failureOf(promise: Promise<unknown>): Promise<{ code: string; message: string; deviceState: string; evidence: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string; deviceState: string; evidence: Record<string, unknown> };
  }
  throw new Error('expected the operation to fail, but it succeeded');
}
