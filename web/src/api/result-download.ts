import type { Api, ExportFormat } from './client.ts';
import { unwrap } from './http.ts';

/**
 * A complete scenario's result as a file: `GET .../result?format=csv|xlsx` (the export takes the result's
 * first table view), through the API's typed client, so the token travels as for every call.
 */
export async function downloadResult({ http, config }: Api, sid: string, id: string, format: ExportFormat): Promise<Blob> {
  const blob = await unwrap(config, http.GET('/sessions/{sid}/scenarios/{id}/result', { params: { path: { sid, id }, query: { format } }, parseAs: 'blob' }));
  // A server that cannot export the result this way answers JSON: say so instead of saving it as a file.
  if (blob.type.includes('json')) throw new Error(`this server does not export this result as ${format.toUpperCase()}`);
  return blob;
}
