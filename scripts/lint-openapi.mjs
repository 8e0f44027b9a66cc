// Lints the app's OpenAPI document with Redocly (recommended ruleset), offline. Run: npm run lint:openapi
import { buildOpenApiDocument } from '../src/runtime/openapi-document.ts';
import { lintOpenApi } from './openapi-lint.ts';

const { exitCode, output } = await lintOpenApi(await buildOpenApiDocument());
console.log(output);
process.exitCode = exitCode ?? 1;
