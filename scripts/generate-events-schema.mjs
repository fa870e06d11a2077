// Writes schema/events.json: the JSON Schema of every `--json` event, made from their zod schemas
// (src/frontends/json/json-event-schema.ts), shipped as `panto/schema/events.json`.
// Run it after changing an event: `npm run build && npm run generate-events-schema`.
// test/package/events-schema.test.ts fails while the file is stale.
import { mkdirSync, writeFileSync } from "node:fs";

const { eventsJsonSchema } = await import(
  new URL("../dist/frontends/json/json-event-schema.js", import.meta.url).href
);
const folder = new URL("../schema/", import.meta.url);
mkdirSync(folder, { recursive: true });
const target = new URL("events.json", folder);
writeFileSync(target, `${JSON.stringify(eventsJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
