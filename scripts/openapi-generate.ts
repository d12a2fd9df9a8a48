/**
 * `npm run openapi:generate`: writes src/client/schema.ts, the API's types generated with openapi-typescript
 * from the document a real server serves. Run it after changing a route; the contract test fails until then.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { generateTypes, ROOT, SCHEMA_PATH, servedOpenApiDocument } from '../testing/openapi.js';

const doc = await servedOpenApiDocument();
writeFileSync(SCHEMA_PATH, await generateTypes(doc));
process.stdout.write(`wrote ${relative(ROOT, SCHEMA_PATH)} (${Object.keys(doc.paths).length} paths)\n`);
