import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createRecallTool } from "../../src/recall/index.js";
import { createTodoTool } from "../../src/todos/index.js";
import { BUILT_IN_SCHEMAS } from "../../src/tools/built-in-schemas.js";
import { createDefaultTools } from "../../src/tools/index.js";
import { toParameters } from "../../src/tools/to-parameters.js";
import { TOOL_PARAMETERS } from "../../src/tools/tool-parameters.js";

describe("the built-in tools' JSON Schemas", () => {
  it("are what their zod schemas give (else run: npm run build && npm run generate-tool-parameters)", () => {
    for (const [name, build] of Object.entries(BUILT_IN_SCHEMAS))
      expect({ name, parameters: TOOL_PARAMETERS[name as keyof typeof TOOL_PARAMETERS] }).toEqual({
        name,
        parameters: toParameters(build(z)),
      });
  });

  it("are the ones every default tool, recall and todo offer the model, one per tool", () => {
    const tools = [
      ...createDefaultTools(),
      createRecallTool({ session: () => undefined }),
      createTodoTool({ session: () => undefined }),
    ];
    expect(tools.map((tool) => tool.definition.name).sort()).toEqual(Object.keys(BUILT_IN_SCHEMAS).sort());
    for (const tool of tools)
      expect(tool.definition.parameters).toBe(
        TOOL_PARAMETERS[tool.definition.name as keyof typeof TOOL_PARAMETERS],
      );
  });
});
