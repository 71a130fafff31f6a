/**
 * Runnable documentation. Every shell block in the docs is marked by the HTML
 * comment on the line before its fence: `<!-- tour -->` (run, in order, as one
 * shell session by test/e2e/docs-tours.e2e-spec.ts) or `<!-- not run: why -->`.
 * Inside a tour, a line that is only `# → expected` claims what the commands
 * since the previous claim printed on stdout: its fragments, split at `…`,
 * must appear in that order (white space folded). So the docs cannot promise
 * an output the product does not give.
 */
export const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'console']);
const TOUR_MARK = /^<!--\s*tour\s*-->$/;
const NOT_RUN_MARK = /^<!--\s*not run:\s*(.+?)\s*-->$/;
const CLAIM = /^\s*# → (.+)$/;
const INLINE_CLAIM = /\S.*# → /;

export interface ShellBlock {
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly language: string;
  readonly code: string;
  /** `tour`, `not-run`, or undefined when the block carries no mark (which the docs test refuses). */
  readonly mark: 'tour' | 'not-run' | undefined;
  readonly notRunReason?: string;
}

export function shellBlocks(markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const fence = /^```(\S*)\s*$/.exec(lines[index]);
    if (!fence) continue;
    const end = lines.findIndex((line, at) => at > index && /^```\s*$/.test(line));
    if (end < 0) throw new Error(`line ${index + 1}: a code fence that never closes`);
    const language = fence[1];
    if (SHELL_LANGUAGES.has(language)) {
      const previous = (lines[index - 1] ?? '').trim();
      const notRun = NOT_RUN_MARK.exec(previous);
      blocks.push({
        line: index + 1,
        language,
        code: lines.slice(index + 1, end).join('\n'),
        mark: TOUR_MARK.test(previous) ? 'tour' : notRun ? 'not-run' : undefined,
        notRunReason: notRun?.[1],
      });
    }
    index = end;
  }
  return blocks;
}

export interface TourClaim {
  /** 1-based line in the markdown file. */
  readonly line: number;
  readonly text: string;
}

export interface TourScript {
  /** The tour as one bash script, a marker printed where each claim stood. */
  readonly script: string;
  readonly claims: readonly TourClaim[];
}

export const STEP_MARKER = '@@tour-claim@@';

/**
 * Joins a file's tour blocks into one script. `rewrite` adapts each line to
 * the test's machine (a free port, say) without changing what it does.
 */
export function tourScript(blocks: readonly ShellBlock[], rewrite: (line: string) => string = (line) => line): TourScript {
  const claims: TourClaim[] = [];
  const script: string[] = [];
  for (const block of blocks.filter((candidate) => candidate.mark === 'tour')) {
    block.code.split('\n').forEach((line, offset) => {
      const lineNumber = block.line + 1 + offset;
      const claim = CLAIM.exec(line);
      if (claim) {
        claims.push({ line: lineNumber, text: claim[1] });
        script.push(`printf '\\n%s\\n' '${STEP_MARKER}'`);
        return;
      }
      if (INLINE_CLAIM.test(line)) throw new Error(`line ${lineNumber}: put the "# →" claim on a line of its own, after the command`);
      script.push(rewrite(line));
    });
  }
  return { script: script.join('\n') + '\n', claims };
}

/** The port the docs are written for: the ledger's default. */
export const DEFAULT_PORT = '8666';
/** The one line of a tour that says where the ledger listens; every other command follows `$PORT` and `$LEDGER_URL`. */
const PORT_LINE = new RegExp(`^export PORT=${DEFAULT_PORT}(?=\\s|$)`);

export interface TourOnPort extends TourScript {
  /** Commands that name the default port themselves, and so would not follow the port line. */
  readonly hardCoded: readonly string[];
}

/**
 * The tour moved to `port` as a person would move it: its `export PORT=`
 * line changed, every other command as written. Claims that show an address
 * (`listening on http://127.0.0.1:8666`) expect it on `port`, so an address
 * the ledger prints wrongly fails them.
 */
export function tourOnPort(blocks: readonly ShellBlock[], port: number): TourOnPort {
  const hardCoded: string[] = [];
  const { script, claims } = tourScript(blocks, (line) => {
    if (PORT_LINE.test(line)) return line.replace(PORT_LINE, `export PORT=${port}`);
    if (line.includes(DEFAULT_PORT)) hardCoded.push(line);
    return line;
  });
  const moved = claims.map((claim) => ({ ...claim, text: claim.text.replaceAll(`:${DEFAULT_PORT}`, `:${port}`) }));
  return { script, claims: moved, hardCoded };
}

/** What each claim's commands printed: the stdout between one marker and the previous one. */
export function outputsByClaim(stdout: string): string[] {
  const parts = stdout.split(`\n${STEP_MARKER}\n`);
  return parts.slice(0, -1);
}

const fold = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Undefined when the output keeps the claim; otherwise why not. */
export function claimMismatch(claim: string, output: string): string | undefined {
  const haystack = fold(output);
  let from = 0;
  for (const fragment of claim.split('…').map(fold).filter((part) => part.length > 0)) {
    const at = haystack.indexOf(fragment, from);
    if (at < 0) return `expected ${JSON.stringify(fragment)}${from > 0 ? ' after the earlier fragments' : ''}`;
    from = at + fragment.length;
  }
  return undefined;
}
