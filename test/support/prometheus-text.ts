/**
 * Prometheus' text exposition format (version 0.0.4) read by a real parser, for tests that read
 * `/v1/metrics`: the official Python client's (`prometheus_client.parser`, Debian's
 * `python3-prometheus-client`), run by `prometheus-text.py` beside this file. prom-client writes
 * the format but has no parser, and the one parser package on npm (`parse-prometheus-text-format`
 * 1.1.1) drops the labels, `_sum` and `_count` of a histogram with labels besides `le` (every
 * histogram here has them).
 * https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./prometheus-text.py', import.meta.url));

/** The families of `text` by name; throws when the parser refuses it or is not installed. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const run = spawnSync(PYTHON, [SCRIPT], { input: text, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (run.error) throw new Error(`${PYTHON} cannot run (${run.error.message}): install Debian's python3 and python3-prometheus-client (.ci/debian-packages python3-prometheus-client)`);
  if (run.status !== 0) {
    if (run.stderr.includes("No module named 'prometheus_client'")) throw new Error(`the Prometheus text parser is missing: install Debian's python3-prometheus-client (.ci/debian-packages python3-prometheus-client)`);
    throw new Error(`Prometheus' parser refused the exposition: ${run.stderr}`);
  }
  const families = new Map<string, Family>();
  for (const f of JSON.parse(run.stdout) as Array<Omit<Family, 'samples'> & { samples: Array<Omit<Sample, 'value'> & { value: number | string }> }>) {
    if (families.has(f.name)) throw new Error(`metric family ${f.name} given twice`);
    families.set(f.name, { ...f, samples: f.samples.map((s) => ({ ...s, value: Number(s.value) })) });
  }
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
