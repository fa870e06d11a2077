import type { ServerResponse } from "node:http";
import type { RecordedRequest } from "./fake-provider-types.js";
import { sendJson } from "./fake-responses.js";

/** Which wire format's list endpoint a fake server serves. */
export type ModelListWire = "anthropic" | "openai" | "gemini";

const LIST_PATHS: Record<ModelListWire, string> = {
  anthropic: "/v1/models",
  openai: "/v1/models",
  gemini: "/v1beta/models",
};

/** Whether `request` asks this wire format's model list (GET, the list path, any query). */
export function isModelListRequest(wire: ModelListWire, request: RecordedRequest): boolean {
  return request.method === "GET" && request.path.split("?")[0] === LIST_PATHS[wire];
}

/** Answers the list request with `models` in the wire format's own shape, as one page. */
export function sendModelList(wire: ModelListWire, res: ServerResponse, models: readonly string[]): void {
  switch (wire) {
    case "anthropic":
      sendJson(res, {
        data: models.map((id) => ({
          type: "model",
          id,
          display_name: id,
          created_at: "2025-01-01T00:00:00Z",
        })),
        has_more: false,
        first_id: models[0] ?? null,
        last_id: models.at(-1) ?? null,
      });
      return;
    case "openai":
      sendJson(res, {
        object: "list",
        data: models.map((id) => ({ id, object: "model", created: 1735689600, owned_by: "fake" })),
      });
      return;
    case "gemini":
      sendJson(res, {
        models: models.map((id) => ({
          name: `models/${id}`,
          displayName: id,
          supportedGenerationMethods: ["generateContent"],
        })),
      });
      return;
  }
}
