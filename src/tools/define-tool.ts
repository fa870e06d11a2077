import type { z } from "zod";
import { describeError } from "./describe-error.js";
import type { Tool, ToolContext, ToolKind, ToolOutput } from "./tool.js";
import { errorOutput } from "./tool-output.js";

/** The zod namespace, handed to a tool's schema builder so that zod loads only when a tool runs. */
export type Zod = typeof z;

/**
 * Everything needed to build a Tool. The schema validates arguments; `parameters` is the JSON
 * Schema offered to the model, made from the same schema (for the built-in tools, ahead of time:
 * see tool-parameters.ts), so a run that calls no tool never loads zod.
 */
export interface ToolSpec<Schema extends z.ZodObject> {
  name: string;
  description: string;
  kind: ToolKind;
  confinable?: Tool["confinable"];
  /** The schema, or a builder called with zod on the first call. */
  schema: Schema | ((zod: Zod) => Schema);
  parameters: Record<string, unknown>;
  run(args: z.output<Schema>, context: ToolContext): Promise<ToolOutput>;
}

/**
 * Builds a Tool whose `execute` validates arguments, refuses to start once aborted, and turns any
 * failure into an error output, so callers of `execute` never see an exception.
 */
export function defineTool<Schema extends z.ZodObject>(spec: ToolSpec<Schema>): Tool {
  let schema: Schema | undefined = typeof spec.schema === "function" ? undefined : spec.schema;
  const loadSchema = async (): Promise<Schema> => {
    const { z: zod } = await import("zod");
    schema ??= (spec.schema as (zod: Zod) => Schema)(zod);
    return schema;
  };
  return {
    definition: { name: spec.name, description: spec.description, parameters: spec.parameters },
    kind: spec.kind,
    ...(spec.confinable === undefined ? {} : { confinable: spec.confinable }),
    async execute(args, context) {
      // Once loaded, validation starts the call in the same tick, as an abort check right after expects.
      const parsed = (schema ?? (await loadSchema())).safeParse(args, { reportInput: true });
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
