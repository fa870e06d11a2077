/**
 * Where a context window figure came from: "learned" from an overflow, "server" as the server
 * reports it, "configured" in config `models`, "published" by the model's maker (panto's table).
 */
export type WindowSource = "learned" | "server" | "configured" | "published";
