// Runs every bench script in this folder, one after the other (`npm run bench`).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const scripts = readdirSync(dir).filter((f) => f.endsWith('.mjs') && f !== 'run.mjs' && !f.startsWith('_')).sort();
let failed = 0;
for (const script of scripts) {
  console.log(`\n## ${script}`);
  const r = spawnSync(process.execPath, [`${dir}${script}`], { stdio: 'inherit', env: process.env });
  if (r.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
