import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { eventsJsonSchema } from "../../src/frontends/json/json-event-schema.js";

const SHIPPED = new URL("../../schema/events.json", import.meta.url);

describe("the shipped events schema (panto/schema/events.json)", () => {
  it("is the one generated from the events' zod schemas (npm run build && npm run generate-events-schema)", () => {
    expect(readFileSync(SHIPPED, "utf8")).toBe(`${JSON.stringify(eventsJsonSchema(), null, 2)}\n`);
  });
});
