/**
 * Loaded into the ledger process (`node -r`) when LEDGER_BENCH_PROFILE_DIR
 * is set: the benchmark sends `{ profile: 'start' }` and
 * `{ profile: 'stop', name }` over the IPC channel, and the ledger's CPU
 * profile of that span is written to `<dir>/<name>.cpuprofile` (open it in
 * Chrome DevTools or speedscope). `--cpu-prof` cannot do this: it writes
 * only at a normal exit and profiles start-up and fixtures as well.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

type ProfileMessage = { profile: 'start' } | { profile: 'stop'; name: string };

const directory = process.env.LEDGER_BENCH_PROFILE_DIR;
if (directory && process.send) {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  const handle = async (message: ProfileMessage): Promise<string | undefined> => {
    if (message.profile === 'start') {
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 250 });
      await post('Profiler.start');
      return undefined;
    }
    const { profile } = await post('Profiler.stop');
    const file = join(directory, `${message.name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    return file;
  };
  process.on('message', (message: ProfileMessage) => {
    handle(message).then(
      (file) => process.send?.({ profiled: message.profile, file }),
      (error: Error) => process.send?.({ profiled: message.profile, error: error.message }),
    );
  });
  // The IPC channel must not keep a ledger alive that is shutting down.
  process.channel?.unref();
}
