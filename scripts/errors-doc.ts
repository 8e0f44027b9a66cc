import { fileURLToPath } from 'node:url';
import { ERROR_CODES, ERROR_REGISTRY } from '../src/errors.js';
import { BEFORE_ROUTING } from '../src/http/route-errors.js';
import { RUN_ERROR_CODES } from '../src/model/run-state/run-error.js';
import { ERROR_EXAMPLES } from './error-examples.js';

/** Where the generated page lives; a test checks that the committed one is current. */
export const ERRORS_DOC_PATH = fileURLToPath(new URL('../docs/api/errors.md', import.meta.url));

/** Markdown table cells: a `|` would end the cell. */
const cell = (text: string) => text.replaceAll('|', '\\|');

/** docs/api/errors.md, from the error registry (src/errors.ts). */
export function renderErrorsDoc(): string {
  const rows = [...ERROR_CODES]
    .sort((a, b) => ERROR_REGISTRY[a].status - ERROR_REGISTRY[b].status)
    .map((code) => {
      const { status, meaning, fix } = ERROR_REGISTRY[code];
      const example = ERROR_EXAMPLES[code]?.message;
      return `| \`${code}\` | ${status} | ${cell(meaning)} | ${example === undefined ? '' : `e.g. ${cell(example).replaceAll('<', '&lt;')}`} | ${cell(fix)} |`;
    });
  return `<!-- Generated from src/errors.ts by \`npm run generate:errors\`; do not edit by hand. -->
# Error codes

Every 4xx and 5xx answer has the body \`{ "detail": "...", "code": "..." }\`: \`detail\` is for people and
may change wording; \`code\` is for programs and is stable. Branch on \`code\`, never on \`detail\`. When
fields of the request are at fault (\`INVALID_REQUEST\`, \`PARAMETER_INVALID\`, \`WEBHOOK_TARGET_REFUSED\`,
and \`QUERY_INVALID\` when the query fails its schema, and the edits of \`DATASET_EDITS_INVALID\`), \`errors: [{ path, message }]\`
lists them all at once, up to 100: past that it lists the first 100 and \`errors_total\` (present only then)
counts them all, and \`detail\` names the first five and how many more there are.

A code keeps its name and its HTTP status; new failures get new codes, so a client keeps a default
branch. Each operation of the OpenAPI document (\`/openapi.json\`) lists the codes it can answer in
\`x-error-codes\`, from the one declaration the server itself is held to; the typed client exports them
as the union \`ScenaristErrorCode\`. The example \`detail\` of a code is one of the situations it covers,
worded as the server words it (codes answered by the HTTP parser or the framework, before the service's
own code runs, show none). Codes answered before a request reaches any route
(${BEFORE_ROUTING.map((c) => `\`${c}\``).join(', ')}) can come on any path and are in no operation's list.

| code | status | meaning | example \`detail\` | fix |
|---|---|---|---|---|
${rows.join('\n')}

## Why a run failed

A FAILED scenario carries a run error code, separate from the codes above (the request that reads it
succeeded): \`error.code\` of the scenario, \`error_code\` of its status
(\`GET /sessions/{sid}/scenarios/{id}/status\`), and \`code\` of its \`scenario.failed\` event. The
typed client exports them as \`ScenaristRunErrorCode\`: ${RUN_ERROR_CODES.map((c) => `\`${c}\``).join(', ')}.
`;
}
