import { type Command, CommanderError } from 'commander';
import { COMMAND_FILES, type CommandFile, commandName } from './command-catalog';
import { ledgerctlProgram, ledgerctlRoot } from './ledgerctl-program';

/** Every command file registered up front: what ledgerctl printed before it loaded lazily. */
async function eagerProgram(): Promise<Command> {
  const program = ledgerctlRoot();
  for (const file of COMMAND_FILES) await file.register(program);
  return program;
}

/** What a program prints (stdout and stderr, in order) and its exit code for `ledgerctl ...args`. */
async function output(program: Command, args: readonly string[]): Promise<{ text: string; exitCode: number }> {
  let text = '';
  const capture = (chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  };
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    await program.parseAsync(['node', 'ledgerctl', ...args]);
    return { text, exitCode: 0 };
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { text, exitCode: error.exitCode };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

const names = COMMAND_FILES.flatMap((file) => file.commands.map(([term]) => commandName(term)));

describe('ledgerctl program', () => {
  it.each([
    [[]],
    [['--help']],
    [['help']],
    [['quot']],
    ...names.map((name) => [[name, '--help']]),
    ...names.map((name) => [['help', name]]),
    [['audit', 'verify', '--help']],
    [['quota', 'set', '--help']],
    [['token', 'issue']],
  ])('prints for %j what the program with every command loaded prints', async (args: string[]) => {
    const lazy = await output(await ledgerctlProgram(['node', 'ledgerctl', ...args]), args);
    expect(lazy).toEqual(await output(await eagerProgram(), args));
    expect(lazy.text).not.toBe('');
  });

  it('lists every command of every file in --help, in catalog order', async () => {
    const { text } = await output(await ledgerctlProgram(['node', 'ledgerctl', '--help']), ['--help']);
    const listed = [...text.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((match) => match[1]).filter((name) => name !== 'help');
    expect(listed).toEqual(names);
  });

  it('loads only the file of the command it runs', async () => {
    const files: CommandFile[] = COMMAND_FILES.map((file) => ({ ...file, register: jest.fn(file.register) }));
    await ledgerctlProgram(['node', 'ledgerctl', 'agent-credential', 'host-1'], files);
    expect(files.map((file) => (file.register as jest.Mock).mock.calls.length)).toEqual(
      COMMAND_FILES.map((file) => (file.commands.some(([term]) => term.startsWith('agent-credential ')) ? 1 : 0)),
    );
    await ledgerctlProgram(['node', 'ledgerctl', '--help'], files);
    expect(files.map((file) => (file.register as jest.Mock).mock.calls.length).reduce((a, b) => a + b)).toBe(1);
  });
});
