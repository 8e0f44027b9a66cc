import type { Api } from './client.ts';
import { unwrap } from './http.ts';

/**
 * The domain's sample data (docs/api/etl.md, "Sample data"): what it ships, and loading it into the
 * session through the same ETL as an upload of its files.
 */
export const listSamples = ({ http, config }: Api, sid: string) =>
  unwrap(config, http.GET('/sessions/{sid}/samples', { params: { path: { sid } } })).then((answer) => answer.items);

export const loadSample = ({ http, config }: Api, sid: string, datasetName?: string) =>
  unwrap(config, http.POST('/sessions/{sid}/samples/load', { params: { path: { sid } }, body: datasetName === undefined ? {} : { dataset_name: datasetName } }));
