// Reading the daemon's Prometheus text exposition: samples by name and
// labels, and quantiles estimated from a histogram's buckets.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const sampleLine = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/;
const labelPair = /([a-zA-Z_]\w*)="((?:\\.|[^"\\])*)"/g;

export function parseMetrics(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = sampleLine.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    if (m[2]) {
      labelPair.lastIndex = 0;
      for (let l = labelPair.exec(m[2]); l; l = labelPair.exec(m[2])) {
        labels[l[1]] = l[2].replace(/\\(.)/g, (_s, c: string) => (c === "n" ? "\n" : c));
      }
    }
    const value = m[3] === "+Inf" ? Infinity : m[3] === "-Inf" ? -Infinity : Number(m[3]);
    out.push({ name: m[1], labels, value });
  }
  return out;
}

// byLabel sums the samples of one metric by the value of one label.
export function byLabel(samples: Sample[], name: string, label: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samples) {
    if (s.name !== name) continue;
    const k = s.labels[label] ?? "";
    out.set(k, (out.get(k) ?? 0) + s.value);
  }
  return out;
}

export function value(samples: Sample[], name: string): number {
  return samples.filter((s) => s.name === name).reduce((a, s) => a + s.value, 0);
}

// quantile estimates the q-quantile (0..1) of a histogram from its
// cumulative buckets, interpolating linearly inside the bucket that holds
// it, as Prometheus' histogram_quantile does. NaN when it is empty.
export function quantile(samples: Sample[], histogram: string, q: number): number {
  const buckets = samples
    .filter((s) => s.name === histogram + "_bucket")
    .map((s) => ({ le: s.labels.le === "+Inf" ? Infinity : Number(s.labels.le), count: s.value }))
    .sort((a, b) => a.le - b.le);
  if (buckets.length === 0) return NaN;
  const total = buckets[buckets.length - 1].count;
  if (total === 0) return NaN;
  const rank = q * total;
  let prevLe = 0;
  let prevCount = 0;
  for (const b of buckets) {
    if (b.count >= rank) {
      if (b.le === Infinity) return prevLe; // beyond the last finite bound
      const inBucket = b.count - prevCount;
      if (inBucket === 0) return b.le;
      return prevLe + ((b.le - prevLe) * (rank - prevCount)) / inBucket;
    }
    prevLe = b.le;
    prevCount = b.count;
  }
  return prevLe;
}
