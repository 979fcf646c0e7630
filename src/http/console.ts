/**
 * `/console` (`SERVICE_GRAPHQL_ENABLE_CONSOLE`): the console's files, answered synchronously
 * from memory (`console-assets.ts`). Any path under `/console/` that names no file answers
 * `index.html`, since the console routes in the browser; `/` redirects to the console, as the
 * well-known engine's does when its console is on. The console itself calls only the public
 * APIs (`/v1/metadata`, `/v2/query`, `/v1/graphql`), with the admin secret its user gives it.
 */
import { gzipSync } from 'node:zlib';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import type { ConsoleAsset } from './console-assets.js';

/**
 * What the console must know before its first call, written into its page (as the well-known
 * engine's console gets `isAdminSecretSet` from its server): with no admin secret to ask for, it
 * goes straight in; with one, it asks first instead of probing with a call that would be refused.
 */
export interface ConsolePageSettings {
  adminSecretSet: boolean;
}

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** `index.html` with the settings in a `<meta name="service-console-settings">` of its head. */
function pageWithSettings(index: ConsoleAsset, settings: ConsolePageSettings): ConsoleAsset {
  const meta = `<meta name="service-console-settings" content="${escapeAttribute(JSON.stringify(settings))}" />`;
  const body = Buffer.from(index.body.toString('utf8').replace('</head>', `${meta}</head>`));
  return { ...index, body, gzipped: index.gzipped && gzipSync(body, { level: 9 }) };
}

const PREFIX = '/console/';

function send(res: HttpResponse, req: HttpRequest, asset: ConsoleAsset): void {
  const gzip = asset.gzipped !== null && /\bgzip\b/.test(req.getHeader('accept-encoding'));
  res.cork(() => {
    res.writeStatus('200 OK').writeHeader('Content-Type', asset.contentType).writeHeader('Cache-Control', asset.cacheControl).writeHeader('X-Content-Type-Options', 'nosniff');
    if (asset.gzipped !== null) res.writeHeader('Vary', 'Accept-Encoding');
    if (gzip) res.writeHeader('Content-Encoding', 'gzip');
    res.end(gzip ? asset.gzipped! : asset.body);
  });
}

/** A malformed escape names no file. */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return '';
  }
}

export function registerConsoleRoutes(app: TemplatedApp, assets: Map<string, ConsoleAsset>, settings: ConsolePageSettings): void {
  const index = pageWithSettings(assets.get('index.html')!, settings);
  const serve = (res: HttpResponse, req: HttpRequest) => {
    const url = req.getUrl();
    const path = url.startsWith(PREFIX) ? decodedPath(url.slice(PREFIX.length)) : '';
    const asset = path === 'index.html' ? index : assets.get(path);
    // A missing hashed file is a 404 (a stale page asking for an old build), not the page.
    if (!asset && path.startsWith('assets/')) {
      res.cork(() => res.writeStatus('404 Not Found').writeHeader('Content-Type', 'text/plain; charset=utf-8').end('not found'));
      return;
    }
    send(res, req, asset ?? index);
  };
  app.get('/console', serve);
  app.get('/console/*', serve);
  app.get('/', (res) => {
    res.cork(() => res.writeStatus('307 Temporary Redirect').writeHeader('Location', '/console').end());
  });
}
