/**
 * A strict parser of Prometheus' text exposition format (version 0.0.4), for tests that read
 * `/v1/metrics`. prom-client writes the format but has no parser, and the one parser package on
 * npm (`parse-prometheus-text-format` 1.1.1) drops the labels, `_sum` and `_count` of a histogram
 * with labels besides `le` (every histogram here has them): this one follows the format's
 * grammar and throws on anything it does not allow, so a malformed exposition fails the test.
 * https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format
 */
export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: MetricType;
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set<MetricType>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
/** Suffixes a histogram's or a summary's samples carry beside the family's name. */
const SUFFIXES: Record<MetricType, string[]> = { counter: [''], gauge: [''], untyped: [''], histogram: ['_bucket', '_sum', '_count'], summary: ['', '_sum', '_count'] };

function value(text: string, line: number): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new Error(`line ${line}: not a number: ${JSON.stringify(text)}`);
  return Number(text);
}

/** `{a="x",b="y"}` from `at` (just past `{`); the labels and where the closing brace ends. */
function labels(text: string, at: number, line: number): [Record<string, string>, number] {
  const out: Record<string, string> = {};
  let i = at;
  for (;;) {
    if (text[i] === '}') return [out, i + 1];
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`line ${line}: label without "="`);
    const name = text.slice(i, eq).trim();
    if (!LABEL_NAME.test(name)) throw new Error(`line ${line}: bad label name ${JSON.stringify(name)}`);
    if (name in out) throw new Error(`line ${line}: label ${name} given twice`);
    if (text[eq + 1] !== '"') throw new Error(`line ${line}: label value must be quoted`);
    let v = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] !== '\\') {
        v += text[j];
        continue;
      }
      const e = text[++j];
      if (e === 'n') v += '\n';
      else if (e === '\\' || e === '"') v += e;
      else throw new Error(`line ${line}: bad escape \\${e}`);
    }
    if (j >= text.length) throw new Error(`line ${line}: unterminated label value`);
    out[name] = v;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`line ${line}: expected "," or "}" after a label`);
  }
}

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  const familyOf = (sample: string, line: number): Family => {
    for (const f of families.values()) if (SUFFIXES[f.type].some((s) => f.name + s === sample)) return f;
    throw new Error(`line ${line}: sample ${sample} has no # TYPE before it`);
  };
  const declared = (name: string, line: number): Family => {
    if (!NAME.test(name)) throw new Error(`line ${line}: bad metric name ${JSON.stringify(name)}`);
    let f = families.get(name);
    if (!f) families.set(name, (f = { name, type: 'untyped', help: '', samples: [] }));
    if (f.samples.length > 0) throw new Error(`line ${line}: # line for ${name} after its samples`);
    return f;
  };
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    if (raw.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(raw);
      if (!m) return; // a comment
      const f = declared(m[2]!, line);
      if (m[1] === 'TYPE') {
        if (!TYPES.has(m[3] as MetricType)) throw new Error(`line ${line}: unknown type ${JSON.stringify(m[3])}`);
        f.type = m[3] as MetricType;
      } else f.help = (m[3] ?? '').replace(/\\(n|\\)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
      return;
    }
    const nameEnd = raw.search(/[{ ]/);
    if (nameEnd <= 0) throw new Error(`line ${line}: not a sample: ${JSON.stringify(raw)}`);
    const name = raw.slice(0, nameEnd);
    if (!NAME.test(name)) throw new Error(`line ${line}: bad metric name ${JSON.stringify(name)}`);
    let [sampleLabels, rest] = [{} as Record<string, string>, nameEnd];
    if (raw[nameEnd] === '{') [sampleLabels, rest] = labels(raw, nameEnd + 1, line);
    const fields = raw.slice(rest).trim().split(/ +/);
    if (fields.length < 1 || fields.length > 2 || fields[0] === '') throw new Error(`line ${line}: expected a value and an optional timestamp`);
    if (fields[1] !== undefined && !/^-?\d+$/.test(fields[1])) throw new Error(`line ${line}: bad timestamp`);
    const key = `${name}${JSON.stringify(Object.entries(sampleLabels).sort())}`;
    if (seen.has(key)) throw new Error(`line ${line}: series ${key} given twice`);
    seen.add(key);
    familyOf(name, line).samples.push({ name, labels: sampleLabels, value: value(fields[0]!, line) });
  });
  return families;
}

/** The value of the one sample of `name` whose labels include `labels` (undefined: none). */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  const matches = [...families.values()]
    .flatMap((f) => f.samples)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (matches.length > 1) throw new Error(`${matches.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return matches[0]?.value;
}

/** The lines of `service_cache_request_count` alone (a scrape's process metrics may hold values the parser refuses, as `Nan`). */
export const cacheLines = (text: string): string => text.split('\n').filter((l) => l.includes('service_cache_request_count')).join('\n') + '\n';
