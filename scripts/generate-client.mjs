// Regenerates the typed client's schema (src/client/schema.ts) from the app's OpenAPI document.
// Run: npm run generate:client (node --import tsx, so the app's TypeScript sources are used as they are).
import { writeFileSync } from 'node:fs';
import { CLIENT_SCHEMA_PATH, generateClientSchema } from './client-schema.ts';

const source = await generateClientSchema();
writeFileSync(CLIENT_SCHEMA_PATH, source);
console.log(`wrote ${CLIENT_SCHEMA_PATH} (${source.length} characters)`);
