// Runs the bench scripts in this folder one after the other (`npm run bench`), or only those
// named (`npm run bench -- scale subscriptions`).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const all = readdirSync(dir).filter((f) => f.endsWith('.mjs') && f !== 'run.mjs' && !f.startsWith('_')).sort();
const named = process.argv.slice(2).map((n) => n.replace(/\.mjs$/, ''));
const unknown = named.filter((n) => !all.includes(`${n}.mjs`));
if (unknown.length > 0) {
  console.error(`no bench script named ${unknown.join(', ')}; there are: ${all.map((f) => f.replace(/\.mjs$/, '')).join(', ')}`);
  process.exit(2);
}
const scripts = named.length > 0 ? named.map((n) => `${n}.mjs`) : all;
let failed = 0;
for (const script of scripts) {
  console.log(`\n## ${script}`);
  const r = spawnSync(process.execPath, [`${dir}${script}`], { stdio: 'inherit', env: process.env });
  if (r.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
