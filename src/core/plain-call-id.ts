/**
 * A tool call id as an API that takes only `[a-zA-Z0-9_-]` sees it (Anthropic's tool_use ids): every
 * other character becomes `_`, and an id left empty is `tool_call`. Ids that already fit pass
 * unchanged; the call and its result get the same form, so pairing holds. `recall` accepts this
 * form too, since it is the id the model saw on such an API.
 */
export function plainCallId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, "_") || "tool_call";
}
