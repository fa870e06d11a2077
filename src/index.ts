/** panto's public API. */
export * from "./core/index.js";
