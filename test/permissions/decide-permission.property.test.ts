import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decidePermission,
  type PermissionList,
  parsePermissionRule,
  type SourcedRule,
} from "../../src/permissions/index.js";

// A small reference model of the documented order, on a vocabulary where matching is plain:
// deny if any part is denied, else ask if any part is asked, else allow if every part is allowed
// (a bare `Bash` allows all), else the mode's default.

const COMMANDS = ["ls", "npm test", "git diff", "rm -rf build", "make"];
const OPERATORS = [" && ", "; ", " | ", " || ", "\n"];
type Pattern = { kind: "all" } | { kind: "exact"; command: string } | { kind: "prefix"; command: string };

const patternText = (pattern: Pattern): string =>
  pattern.kind === "all" ? "Bash" : `Bash(${pattern.command}${pattern.kind === "prefix" ? ":*" : ""})`;

function covers(pattern: Pattern, part: string): boolean {
  if (pattern.kind === "all") return true;
  if (pattern.kind === "exact") return part === pattern.command;
  return part === pattern.command || part.startsWith(`${pattern.command} `);
}

function reference(parts: string[], lists: Record<PermissionList, Pattern[]>): string {
  for (const list of ["deny", "ask"] as const) {
    if (lists[list].some((pattern) => parts.some((part) => covers(pattern, part)))) return list;
  }
  if (lists.allow.some((pattern) => pattern.kind === "all")) return "allow";
  return parts.every((part) => lists.allow.some((pattern) => covers(pattern, part))) ? "allow" : "default";
}

const pattern: fc.Arbitrary<Pattern> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Pattern>({ kind: "all" }) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(...COMMANDS).map((command): Pattern => ({ kind: "exact", command })),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(...COMMANDS).map((command): Pattern => ({ kind: "prefix", command })),
  },
);
const part = fc
  .tuple(fc.constantFrom(...COMMANDS), fc.boolean())
  .map(([command, flag]) => (flag ? `${command} --verbose` : command));

describe("the permission verdict against a reference model of deny, ask, allow", () => {
  it("agrees for random rule sets over layers and random compound commands", () => {
    fc.assert(
      fc.property(
        fc.array(part, { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom(...OPERATORS), { minLength: 3, maxLength: 3 }),
        fc.record({
          deny: fc.array(pattern, { maxLength: 2 }),
          ask: fc.array(pattern, { maxLength: 2 }),
          allow: fc.array(pattern, { maxLength: 4 }),
        }),
        fc.array(fc.constantFrom("managed", "user", "project", "local", "session" as const), {
          minLength: 8,
          maxLength: 8,
        }),
        (parts, operators, lists, layers) => {
          const line = parts
            .map((text, index) => (index === 0 ? text : `${operators[index - 1]}${text}`))
            .join("");
          let position = 0;
          const sourced: SourcedRule[] = (["deny", "ask", "allow"] as const).flatMap((list) =>
            lists[list].map((item, index) => {
              const parsed = parsePermissionRule(patternText(item));
              if ("message" in parsed) throw new Error(parsed.message);
              const layer = layers[position++ % layers.length] ?? "project";
              return { ...parsed, list, layer, index };
            }),
          );
          const decision = decidePermission({ tool: "bash", command: line }, sourced, {
            root: "/p",
            home: "/h",
          });
          expect(decision.verdict).toBe(reference(parts, lists));
        },
      ),
      { numRuns: 500 },
    );
  });
});
