import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Domain, DomainSeed } from '../define.js';
import { readAlgorithms, readResultTypes } from './algorithms.js';
import { optional, readSchemas } from './dataset-schemas.js';
import { readKpis } from './kpis.js';
import { readFields, readString, readStringArray } from './read.js';
import { readViews } from './views.js';
import { ManifestError, Where } from './where.js';

/** The file name `scenarist init --language python` writes, and the one a folder given as `--domain` is read from. */
export const MANIFEST_FILE = 'scenarist.domain.json';

const TOP_FIELDS = ['$schema', 'name', 'description', 'schemas', 'resultTypes', 'resultKeys', 'algorithms', 'kpis', 'views', 'seed'];

/**
 * A domain declared without code (docs/external-algorithms.md, "A domain without TypeScript"): its
 * algorithms are external programs, its KPIs numbers their results carry, its views drawn from those
 * results. Read into the very `Domain` a `defineDomain` module exports, so everything after loading
 * (the registry's checks, discovery, runs, KPIs, views, exports) is the same for both forms.
 * `shown` is how messages name the file (the `domain` setting as given).
 */
export function readManifest(file: string, shown: string): Domain {
  const root: Where = new Where(shown);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    root.fail(`cannot read it: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    root.fail(`is not valid JSON: ${jsonProblem(text, err as Error)}`);
  }
  const fields = readFields(json, root, TOP_FIELDS, ['name', 'algorithms', 'resultTypes']);
  const schemas = fields.schemas === undefined ? {} : readSchemas(fields.schemas, root.key('schemas'));
  const resultTypes = readResultTypes(fields.resultTypes, root.key('resultTypes'), fields.resultKeys, root.key('resultKeys'));
  const algorithms = readAlgorithms(fields.algorithms, root.key('algorithms'), resultTypes);
  const kpis = fields.kpis === undefined ? [] : readKpis(fields.kpis, root.key('kpis'), algorithms, resultTypes);
  const views = fields.views === undefined ? [] : readViews(fields.views, root.key('views'), schemas, algorithms, resultTypes);
  const seed = fields.seed === undefined ? undefined : readSeed(fields.seed, root.key('seed'), dirname(file));
  if (fields.description !== undefined && typeof fields.description !== 'string') root.key('description').fail('must be a string');
  return Object.freeze({ name: readString(fields.name, root.key('name')), schemas, algorithms, kpis, views, ...optional('seed', seed) });
}

/** `seed.files` are relative to the manifest's folder, as `./` paths of a command are. */
function readSeed(value: unknown, at: Where, dir: string): DomainSeed {
  const fields = readFields(value, at, ['datasetKey', 'files'], ['datasetKey', 'files']);
  const files = readStringArray(fields.files, at.key('files')).map((name, i) => {
    const path = resolve(dir, name);
    if (!existsSync(path)) at.key('files').index(i).fail(`no such file ${path}`);
    return path;
  });
  if (files.length === 0) at.key('files').fail('must list at least one file');
  return { datasetKey: readString(fields.datasetKey, at.key('datasetKey')), files };
}

/**
 * JSON.parse's message with the line and column of the position it names, which an editor goes to; on
 * one line (the excerpt some messages quote may span lines).
 */
function jsonProblem(text: string, err: Error): string {
  const position = /position (\d+)/.exec(err.message);
  if (!position) return err.message.replace(/\s*\n\s*/g, ' ');
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${err.message.replace(/ in JSON at position \d+.*$/s, '')} at line ${line}, column ${column}`;
}

export { ManifestError };
