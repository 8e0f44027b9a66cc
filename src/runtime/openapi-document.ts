import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { resolveSettings } from '../config/resolve.js';
import type { RawSettings } from '../config/settings.js';
import { assemble } from './assemble.js';
import { buildApp } from '../http/app.js';

/**
 * The app's OpenAPI document as a server with these settings serves it at /openapi.json, built on a
 * throwaway SQLite store (the document depends on the routes, not on data). Used to generate the typed
 * client and to check that the committed one is current.
 */
export async function buildOpenApiDocument(settings: RawSettings = {}): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'scenarist-openapi-'));
  try {
    const resolved = resolveSettings({ data_dir: dir, database_url: `sqlite:${join(dir, 'openapi.db')}`, workers: 0, ...settings });
    const runtime = await assemble(resolved, pino({ level: 'silent' }));
    try {
      const app = await buildApp(runtime.services);
      try {
        await app.ready();
        return app.swagger() as unknown as Record<string, unknown>;
      } finally {
        await app.close();
      }
    } finally {
      await runtime.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
