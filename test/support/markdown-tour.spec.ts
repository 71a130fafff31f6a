import { claimMismatch, outputsByClaim, shellBlocks, STEP_MARKER, tourOnPort, tourScript } from './markdown-tour';

const doc = [
  '# A doc',
  '<!-- tour -->',
  '```sh',
  'echo one',
  '# → one',
  'echo "two three"',
  '# → two … three',
  '```',
  '',
  '<!-- not run: needs a real cloud -->',
  '```sh',
  'openstack server create x',
  '```',
  '```bash',
  'echo unmarked',
  '```',
  '```json',
  '{"not": "shell"}',
  '```',
].join('\n');

describe('markdown tours', () => {
  it('finds every shell block with its mark and line, and ignores other languages', () => {
    const blocks = shellBlocks(doc);
    expect(blocks.map(({ line, mark, notRunReason }) => ({ line, mark, notRunReason }))).toEqual([
      { line: 3, mark: 'tour', notRunReason: undefined },
      { line: 11, mark: 'not-run', notRunReason: 'needs a real cloud' },
      { line: 14, mark: undefined, notRunReason: undefined },
    ]);
  });

  it('turns claims into markers and keeps their lines', () => {
    const { script, claims } = tourScript(shellBlocks(doc), (line) => line.replace('one', 'uno'));
    expect(claims).toEqual([
      { line: 5, text: 'one' },
      { line: 7, text: 'two … three' },
    ]);
    expect(script).toContain('echo uno');
    expect(script.split(STEP_MARKER)).toHaveLength(3);
    expect(script).not.toContain('openstack');
  });

  it('refuses a claim written on the same line as a command, which the runner could not check', () => {
    const inline = '<!-- tour -->\n```sh\ncurl -s x   # → 202\n```\n';
    expect(() => tourScript(shellBlocks(inline))).toThrow(/line 3/);
  });

  it('refuses a fence that never closes', () => {
    expect(() => shellBlocks('```sh\necho\n')).toThrow(/never closes/);
  });

  it('splits stdout at the markers', () => {
    expect(outputsByClaim(`a\n${STEP_MARKER}\nb\nc\n${STEP_MARKER}\nrest`)).toEqual(['a', 'b\nc']);
  });

  it('matches fragments in order, with white space folded', () => {
    expect(claimMismatch('"appended":2 … "events":["a"]', '{"appended":2,\n "events":["a"]}')).toBeUndefined();
    expect(claimMismatch('sim-1   up', 'HOST   STATE\nsim-1 up  4')).toBeUndefined();
    expect(claimMismatch('b … a', 'a b')).toMatch(/after the earlier fragments/);
    expect(claimMismatch('Bound', 'BindFailed')).toMatch(/expected "Bound"/);
  });

  it('moves a tour to another port by its one `export PORT=` line, and names commands that hard-code the default', () => {
    const tour = [
      '<!-- tour -->',
      '```sh',
      'export PORT=8666   # the one line to change',
      'npm start &',
      'grep listening ledger.log',
      '# → listening on http://127.0.0.1:8666',
      'curl -s $LEDGER_URL/readyz',
      'curl -s http://127.0.0.1:8666/healthz',
      '```',
    ].join('\n');
    const { script, claims, hardCoded } = tourOnPort(shellBlocks(tour), 18666);
    expect(script).toContain('export PORT=18666   # the one line to change');
    expect(script).toContain('curl -s http://127.0.0.1:8666/healthz'); // run as written: it would miss the ledger
    expect(hardCoded).toEqual(['curl -s http://127.0.0.1:8666/healthz']);
    expect(claims).toEqual([{ line: 6, text: 'listening on http://127.0.0.1:18666' }]);
  });
});
