import { z } from "zod";

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
