import { describeCommandFailure, runCommand } from './run-command';

describe('runCommand', () => {
  it('runs a program without a shell and keeps its output and exit status', async () => {
    const result = await runCommand('/bin/sh', ['-c', 'echo out; echo err >&2; exit 3', 'ignored; rm -rf /'], { timeoutMs: 10_000 });
    expect(result).toEqual({ exitCode: 3, signal: null, stdout: 'out\n', stderr: 'err\n', timedOut: false });
    expect(describeCommandFailure('tool', result)).toBe('tool exited with 3: err');
  });

  it('reports a program that does not exist instead of throwing', async () => {
    const result = await runCommand('/nonexistent/tool', [], { timeoutMs: 10_000 });
    expect(result).toMatchObject({ exitCode: null, spawnError: 'ENOENT' });
    expect(describeCommandFailure('tool', result)).toBe('tool could not be started (ENOENT)');
  });

  it('stops a command that outlives its timeout, children included', async () => {
    const started = Date.now();
    const result = await runCommand('/bin/sh', ['-c', 'sleep 30 & sleep 30; wait'], { timeoutMs: 200 });
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(describeCommandFailure('tool', result)).toBe('tool timed out and was stopped');
  });

  it('keeps only the end of an output larger than the limit', async () => {
    const result = await runCommand('/bin/sh', ['-c', 'printf "%0100d" 0; printf END'], { timeoutMs: 10_000, maxOutputChars: 10 });
    expect(result.stdout).toBe('0000000END');
  });
});
