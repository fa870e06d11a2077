import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expandCommandBody, parseCommandFile, splitArguments } from "../../src/custom-commands/index.js";

const file = { path: "/p/.panto/commands/review.md", source: "project" as const };

describe("expandCommandBody", () => {
  it("fills in $ARGUMENTS and $1..$9, quotes grouping words and missing ones empty", () => {
    expect(expandCommandBody("Review $1 for $2 ($3). All: $ARGUMENTS", 'src/a.ts "dead code"')).toBe(
      'Review src/a.ts for dead code (). All: src/a.ts "dead code"',
    );
    expect(expandCommandBody("$10", "a")).toBe("a0");
  });

  it("appends the arguments after a blank line when the body has no placeholder", () => {
    expect(expandCommandBody("Write the notes.\n", "briefly")).toBe("Write the notes.\n\nbriefly");
    expect(expandCommandBody("Write the notes.\n", "")).toBe("Write the notes.");
  });

  it("loses no argument: without placeholders the arguments end the prompt as typed", () => {
    fc.assert(
      fc.property(
        fc.string().filter((body) => !body.includes("$")),
        fc.string({ minLength: 1 }),
        (body, args) => {
          const trimmed = args.trim();
          fc.pre(trimmed !== "" && body.trim() !== "");
          expect(expandCommandBody(body, trimmed).endsWith(trimmed)).toBe(true);
        },
      ),
    );
  });

  it("splits words, keeping quoted spaces", () => {
    expect(splitArguments(`a 'b c' "d e" f`)).toEqual(["a", "b c", "d e", "f"]);
  });
});

describe("parseCommandFile", () => {
  it("reads the front matter keys and the body", async () => {
    const command = await parseCommandFile(
      "---\ndescription: Review\nargument-hint: [file]\nmodel: anthropic/x\nallowed-tools: Read, Grep\n---\nReview $1\n",
      file,
    );
    expect(command).toEqual({
      name: "review",
      description: "Review",
      argumentHint: "[file]",
      model: "anthropic/x",
      allowedTools: ["Read", "Grep"],
      body: "Review $1\n",
      ...file,
    });
  });

  it("describes a command without a description by its first line", async () => {
    const command = await parseCommandFile("# Explain the code\n\nExplain $ARGUMENTS\n", file);
    expect(command).toMatchObject({ description: "Explain the code", argumentHint: "" });
  });

  it("names the file, line and key of a bad value, and refuses a name that cannot be typed or an empty body", async () => {
    expect(await parseCommandFile("---\ndescription: ok\nmodel:\n  a: 1\n---\nx", file)).toEqual({
      path: file.path,
      message: `${file.path}:3: "model" must be text; the command is not loaded`,
    });
    const badName = await parseCommandFile("x", { ...file, path: "/p/my command.md" });
    expect(badName).toMatchObject({
      message: expect.stringContaining('"my command" cannot be a command name'),
    });
    expect(await parseCommandFile("---\ndescription: d\n---\n\n", file)).toMatchObject({
      message: expect.stringContaining("has no prompt text"),
    });
  });
});
