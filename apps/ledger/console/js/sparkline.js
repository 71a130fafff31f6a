// Telemetry sparklines as small inline SVG. The ledger keeps only each
// device's latest sample (the heartbeat's), so the line is the samples this
// page has seen since it opened, newest on the right.
const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 80;
const HEIGHT = 18;
const KEEP = 40;

/** Device uuid → metric → samples kept, oldest first. */
const history = new Map();

/** Remembers a sample of `metric` on `device`. */
export function remember(device, metric, value) {
  const metrics = history.get(device) ?? new Map();
  const samples = metrics.get(metric) ?? [];
  samples.push(value);
  if (samples.length > KEEP) samples.shift();
  metrics.set(metric, samples);
  history.set(device, metrics);
}

/** A device's sparklines, one per metric seen, from the samples kept (none yet: an empty list). */
export const sparklinesOf = (device) => [...(history.get(device) ?? new Map())].map(([metric, samples]) => sparkline(metric, samples));

/** An SVG polyline over the samples, scaled to their own range; the latest value in its title. */
export function sparkline(metric, samples) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'sparkline');
  svg.dataset.metric = metric;
  svg.setAttribute('width', String(WIDTH));
  svg.setAttribute('height', String(HEIGHT));
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `${metric}: ${samples.at(-1)}`);
  const title = document.createElementNS(SVG, 'title');
  title.textContent = `${metric}: ${samples.at(-1)} (${samples.length} samples)`;
  svg.append(title);
  const low = Math.min(...samples);
  const span = Math.max(...samples) - low || 1;
  const step = samples.length > 1 ? WIDTH / (samples.length - 1) : 0;
  const points = samples.map((value, index) => `${(index * step).toFixed(1)},${(HEIGHT - 1 - ((value - low) / span) * (HEIGHT - 2)).toFixed(1)}`);
  const line = document.createElementNS(SVG, 'polyline');
  line.setAttribute('points', samples.length > 1 ? points.join(' ') : `0,${HEIGHT / 2} ${WIDTH},${HEIGHT / 2}`);
  svg.append(line);
  return svg;
}
