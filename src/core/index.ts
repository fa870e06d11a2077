export type * from "./compaction-record.js";
export type * from "./content.js";
export type * from "./context.js";
export * from "./error-codes.js";
export type * from "./messages.js";
export type * from "./model-client.js";
export * from "./panto-error.js";
export type * from "./turn.js";
export type * from "./usage.js";
