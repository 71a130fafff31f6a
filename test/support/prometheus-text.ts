/** One sample of Prometheus's text exposition format. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of an exposition (comments and blank lines skipped); throws on a line that is neither. */
export function parsePrometheusText(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = SAMPLE.exec(line);
      if (!match) throw new Error(`not a Prometheus sample: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key] = value.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

/** The samples named `name` whose labels include `labels`. */
const matching = (samples: readonly Sample[], name: string, labels: Record<string, string>): Sample[] =>
  samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));

/** The value of the one sample named `name` whose labels include `labels`; undefined when none, an error when several. */
export function sampleValue(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = matching(samples, name, labels);
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

/** The sum of the samples named `name` whose labels include `labels` (0 when none): a counter over every series. */
export function sampleSum(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  return matching(samples, name, labels).reduce((total, sample) => total + sample.value, 0);
}
