// The write-heavy case's writer (bench/subscriptions.mjs), on a thread of its own so that the
// results the bench receives meanwhile (tens of thousands a second) do not slow its pace:
// `rate` UPDATEs a second for `seconds`, each setting `n` of a random user's first row (id = the
// user) to the next number, never lower (writes of one row may commit out of order across the
// pool's connections), so that a user's final `n` is the highest number written to it. Posts
// `{ highest, startedAt, endedAt }` (user -> final n; times as `performance.timeOrigin + now()`).
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';

const { url, users, rate, seconds } = workerData;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pool = new pg.Pool({ connectionString: url, max: 8 });
const highest = new Array(users + 1).fill(0);
const writes = [];
const start = performance.now();
for (let n = 1; n <= rate * seconds; n++) {
  // Paced by the clock, 10 ms at a time: the writes due by then go out at once, each on the pool's next free connection.
  const due = start + (n / rate) * 1000;
  if (due > performance.now()) await sleep(Math.max(10, due - performance.now()));
  const user = 1 + Math.floor(Math.random() * users);
  highest[user] = n;
  writes.push(pool.query('UPDATE item SET n = GREATEST(n, $1) WHERE id = $2', [n, user]));
}
await Promise.all(writes);
const end = performance.now();
await pool.end();
parentPort.postMessage({ highest, startedAt: performance.timeOrigin + start, endedAt: performance.timeOrigin + end });
