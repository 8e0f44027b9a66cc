import type { Extension } from '../group-files.js';
import { readCsv } from './csv-reader.js';
import { readJson } from './json-reader.js';
import type { GroupReader } from './reader.js';
import { readXlsx } from './xlsx-reader.js';

/** The reader for each accepted file extension. */
export const READERS: Readonly<Record<Extension, GroupReader>> = { csv: readCsv, json: readJson, xlsx: readXlsx };
