import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AgentDefinitionError, parseAgentDefinition } from "../../src/subagents/index.js";

const FILE = "/p/.claude/agents/x.md";

describe("parseAgentDefinition", () => {
  it("reads name, description, tools (comma list or YAML list), model, and the body as system prompt", async () => {
    const comma = await parseAgentDefinition(
      "---\nname: finder\ndescription: Finds things\ntools: Read, Grep\nmodel: openai/gpt-5\n---\nBe thorough.\n",
      FILE,
    );
    expect(comma).toEqual({
      name: "finder",
      description: "Finds things",
      tools: ["Read", "Grep"],
      model: "openai/gpt-5",
      systemPrompt: "Be thorough.",
      file: FILE,
    });
    const yaml = await parseAgentDefinition(
      '---\nname: finder\ndescription: "Finds"\ntools:\n  - read\n  - bash\nmodel: inherit\n---\nBody',
      FILE,
    );
    expect(yaml.tools).toEqual(["read", "bash"]);
    expect(yaml.model).toBeUndefined();
  });

  it("names the file and line of what it cannot use", async () => {
    const cases: Array<[string, string]> = [
      ["no front matter", "needs front matter"],
      ["---\nname: a\n", "never closed"],
      ["---\ndescription: d\n---\nbody", "needs `name:`"],
      ["---\nname: a\n---\nbody", "needs `description:`"],
      ["---\nname: a\ndescription: d\n---\n", "body (its system prompt) is empty"],
      ["---\nname: a\ndescription: [unclosed\n---\nb", "line 4: invalid YAML"],
      ["---\nname: a\ndescription: d\nmodel: gpt5\n---\nb", "must be provider/model"],
    ];
    for (const [text, problem] of cases) {
      const error = await parseAgentDefinition(text, FILE).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(AgentDefinitionError);
      expect((error as Error).message).toContain(problem);
      expect((error as Error).message).toContain(`agent file ${FILE}`);
    }
  });

  it("either parses or throws an AgentDefinitionError naming the file, whatever the text", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
        try {
          await parseAgentDefinition(`---\n${text}`, FILE);
        } catch (error) {
          expect(error).toBeInstanceOf(AgentDefinitionError);
          expect((error as Error).message).toContain(FILE);
        }
      }),
      { numRuns: 200 },
    );
  });
});
