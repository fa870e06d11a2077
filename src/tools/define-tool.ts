import { z } from "zod";
import { describeError } from "./describe-error.js";
import type { Tool, ToolContext, ToolKind, ToolOutput } from "./tool.js";
import { errorOutput } from "./tool-output.js";

/** Everything needed to build a Tool: its schema is the single source of validation and JSON Schema. */
export interface ToolSpec<Schema extends z.ZodObject> {
  name: string;
  description: string;
  kind: ToolKind;
  schema: Schema;
  run(args: z.output<Schema>, context: ToolContext): Promise<ToolOutput>;
}

/**
 * Builds a Tool whose `execute` validates arguments, refuses to start once aborted, and turns any
 * failure into an error output, so callers of `execute` never see an exception.
 */
export function defineTool<Schema extends z.ZodObject>(spec: ToolSpec<Schema>): Tool {
  return {
    definition: { name: spec.name, description: spec.description, parameters: toParameters(spec.schema) },
    kind: spec.kind,
    async execute(args, context) {
      const parsed = spec.schema.safeParse(args, { reportInput: true });
      if (!parsed.success) return errorOutput(formatArgumentIssues(spec.name, parsed.error.issues));
      if (context.signal?.aborted) return errorOutput(`${spec.name}: aborted before it started`);
      try {
        return await spec.run(parsed.data, context);
      } catch (error) {
        return errorOutput(describeError(error));
      }
    },
  };
}

/** The JSON Schema offered to the model, without the draft marker and the safe-integer bounds zod adds. */
export function toParameters(schema: z.ZodObject): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  return dropSafeIntegerBounds(json) as Record<string, unknown>;
}

function dropSafeIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropSafeIntegerBounds);
  if (value === null || typeof value !== "object") return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === "maximum" && inner === Number.MAX_SAFE_INTEGER) continue;
    if (key === "minimum" && inner === Number.MIN_SAFE_INTEGER) continue;
    result[key] = dropSafeIntegerBounds(inner);
  }
  return result;
}

/** One message naming every bad argument, e.g. `Invalid arguments for read: "offset": expected integer, received string`. */
export function formatArgumentIssues(toolName: string, issues: readonly z.core.$ZodIssue[]): string {
  const problems = issues.map(describeIssue);
  return `Invalid arguments for ${toolName}: ${problems.join("; ")}`;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const name = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => `unknown argument "${name === "" ? key : `${name}.${key}`}"`).join("; ");
  }
  if (issue.code === "invalid_type" && issue.input === undefined)
    return `missing required argument "${name}"`;
  const detail = `${issue.message.replace(/^Invalid input: /, "")}${describeInput(issue.input)}`;
  return name === "" ? detail : `"${name}": ${detail}`;
}

function describeInput(input: unknown): string {
  if (input === undefined || (typeof input === "object" && input !== null)) return "";
  const text = JSON.stringify(input);
  return ` (got ${text.length > 60 ? `${text.slice(0, 60)}…` : text})`;
}
