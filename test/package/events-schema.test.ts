import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { eventsJsonSchema } from "../../src/frontends/json/json-event-schema.js";

const SHIPPED = new URL("../../schema/events.json", import.meta.url);

describe("the shipped events schema (panto/schema/events.json)", () => {
  it("is the one generated from the events' zod schemas (npm run build && npm run generate-events-schema)", () => {
    expect(readFileSync(SHIPPED, "utf8")).toBe(`${JSON.stringify(eventsJsonSchema(), null, 2)}\n`);
  });

  it("refuses what no run emits, so the tests checking emitted events against it can fail", () => {
    const ajv = new Ajv2020.default({ allowUnionTypes: true });
    const validate = ajv.compile(JSON.parse(readFileSync(SHIPPED, "utf8")));
    expect(validate({ type: "done", exit_code: 0 })).toBe(true);
    expect(validate({ type: "done" }), "a required field missing").toBe(false);
    expect(validate({ type: "done", exit_code: 0, exit: 0 }), "a field the schema does not name").toBe(false);
    expect(validate({ type: "finished", exit_code: 0 }), "an unknown type").toBe(false);
    expect(
      validate({ type: "task_event", tool_call_id: "t", agent: "general", event: { type: "warning" } }),
      "a nested event without its message",
    ).toBe(false);
  });
});
