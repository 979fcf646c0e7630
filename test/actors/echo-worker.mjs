// A tiny actor for runtime tests: echoes (at once or slowly), hangs, or dies on request.
import { serveActor } from '../../dist/actors/host.js';

serveActor({
  boot: async () => {},
  shutdown: async () => {},
  handle: async (req) => {
    if (req.type === 'crash') process.exit(3);
    if (req.type === 'hang') return new Promise(() => {});
    if (req.type === 'slow') return new Promise((r) => setTimeout(() => r({ echo: req.value }), 150));
    if (req.type === 'fail') throw new Error('handler failed');
    return { echo: req.value };
  },
});
