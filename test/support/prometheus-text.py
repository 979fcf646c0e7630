"""Parses Prometheus' text exposition format (stdin) with the official Python client's parser
(Debian's python3-prometheus-client) and writes its families as JSON (stdout) for
test/support/prometheus-text.ts.

The parser names a counter's family in the OpenMetrics way (`x_total` declared: family `x`; `x`
declared: samples renamed `x_total`); both are undone here from the `# TYPE` lines, so the tests
read the names exactly as the engine exposes them. Non-finite values travel as strings, JSON
having no NaN nor infinities.
"""
import json
import math
import sys

from prometheus_client.parser import text_string_to_metric_families

text = sys.stdin.read()
declared = {line.split()[2] for line in text.splitlines() if line.startswith('# TYPE ') and len(line.split()) >= 4}


def number(v):
    return v if math.isfinite(v) else ('NaN' if math.isnan(v) else ('Infinity' if v > 0 else '-Infinity'))


families = []
for family in text_string_to_metric_families(text):
    name, samples = family.name, family.samples
    if family.type == 'counter' and name + '_total' not in declared:
        samples = [s._replace(name=s.name[: -len('_total')]) for s in samples]
    elif family.type == 'counter':
        name += '_total'
    families.append({
        'name': name,
        'type': 'untyped' if family.type == 'unknown' else family.type,
        'help': family.documentation,
        'samples': [{'name': s.name, 'labels': s.labels, 'value': number(s.value)} for s in samples],
    })
json.dump(families, sys.stdout, allow_nan=False)
