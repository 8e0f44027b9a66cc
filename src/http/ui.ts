import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorCode } from '../errors.js';
import type { RouteOptions } from './services.js';
import { errors } from '../error-factories.js';
import { UI_HEADERS } from './ui-headers.js';

/**
 * The dashboard (web/, built into web/dist by `npm ci`): served at `/ui/` and `<prefix>/ui/`. The build
 * is small, so every file is served from memory. Routing in the app uses the URL hash, so index.html is
 * the only document; it carries the path from the UI's mount point to the API, which is how the same
 * build finds the API at either mount and behind proxies. Files are read at start-up and each is
 * gzipped on its first request: compressing them all up front took a tenth of a second of every start,
 * which `scenarist dev` pays on each reload.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

interface Asset {
  readonly type: string;
  readonly body: Buffer;
  /** The body gzipped (made on first call, off the event loop), or null where compression does not pay. */
  gzipped(): Promise<Buffer | null>;
}

const gzipAsync = promisify(gzip);

/** Where the built app is: beside the sources (tsx) or beside dist/ (compiled). */
export function findUiBuild(): string | null {
  for (const up of ['../../web/dist', '../../../web/dist']) {
    const dir = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return null;
}

function asset(type: string, body: Buffer): Asset {
  const compressible = !type.startsWith('image/png') && !type.startsWith('font/') && body.length > 512;
  let made: Promise<Buffer> | undefined;
  return { type, body, gzipped: async () => (compressible ? (made ??= gzipAsync(body, { level: 9 })) : null) };
}

function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const walk = (sub: string) => {
    for (const name of readdirSync(join(dir, sub))) {
      const rel = sub ? `${sub}/${name}` : name;
      if (statSync(join(dir, rel)).isDirectory()) walk(rel);
      else if (rel !== 'index.html') assets.set(rel, asset(TYPES[extname(name)] ?? 'application/octet-stream', readFileSync(join(dir, rel))));
    }
  };
  walk('');
  return assets;
}

async function send(request: FastifyRequest, reply: FastifyReply, file: Asset, cache: string) {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  reply.header('content-type', file.type).header('cache-control', cache).header('vary', 'accept-encoding');
  reply.header('x-content-type-options', 'nosniff').headers(UI_HEADERS);
  const gzipped = /\bgzip\b/.test(accepts) ? await file.gzipped() : null;
  if (gzipped) return reply.header('content-encoding', 'gzip').send(gzipped);
  return reply.send(file.body);
}

/** The pages answer 404 when the dashboard is not built, an asset when it is unknown. */
const UI_ERRORS: readonly ErrorCode[] = ['DASHBOARD_NOT_BUILT', 'ROUTE_NOT_FOUND'];

export async function uiRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const dir = findUiBuild();
  const prefix = services.settings.prefix;
  const hidden = { schema: { hide: true }, config: { errors: UI_ERRORS } };
  const missing = () => {
    throw errors.dashboardNotBuilt();
  };
  const template = dir ? readFileSync(join(dir, 'index.html'), 'utf8') : null;
  const assets = dir ? loadAssets(dir) : new Map<string, Asset>();
  if (!dir) app.log.warn('web/dist not found: /ui answers 404 until the dashboard is built');

  for (const base of new Set(['', prefix])) {
    // The API path from this mount: `<prefix>` at the root mount, nothing under the prefix.
    const apiFromMount = base === '' ? prefix : '';
    const index = template ? asset(TYPES['.html']!, Buffer.from(template.replace('__SCENARIST_API__', apiFromMount))) : null;
    const page = async (request: FastifyRequest, reply: FastifyReply) => {
      if (!index) return missing();
      // Relative asset URLs need the trailing slash; the router ignores it, so look at the raw URL.
      const path = request.url.split('?')[0]!;
      if (!path.endsWith('/')) return reply.redirect(`${path.slice(path.lastIndexOf('/') + 1)}/`, 302);
      return send(request, reply, index, 'no-cache');
    };
    app.get(`${base}/ui`, hidden, page);
    // The address people type first leads to the dashboard; relative, as above, so proxies keep their path.
    app.get(base === '' ? '/' : base, { schema: { hide: true }, config: { auth: false, errors: [] } }, async (request, reply) => {
      const path = request.url.split('?')[0]!;
      return reply.redirect(path.endsWith('/') ? 'ui/' : `${path.slice(path.lastIndexOf('/') + 1)}/ui/`, 302);
    });
    app.get<{ Params: { '*': string } }>(`${base}/ui/*`, hidden, async (request, reply) => {
      const rel = request.params['*'];
      if (rel === '' || rel === 'index.html') return page(request, reply);
      const file = assets.get(rel);
      if (!file) throw errors.dashboardFileNotFound(rel);

      // Vite names assets by content hash: a name never changes content, so cache them for good.
      return send(request, reply, file, rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    });
  }
}
