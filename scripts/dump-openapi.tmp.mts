import { buildOpenApiDocument } from '../src/http/openapi/document.js';
console.log(JSON.stringify(await buildOpenApiDocument(), null, 1));
