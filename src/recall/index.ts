export { READ_CHARS, readTurns } from "./read-turns.js";
export { type RecallAnswer, type RecallRequest, type RecallSession, recall } from "./recall.js";
export { parseRecallQuery, type RecallQuery, type RecallTerm } from "./recall-query.js";
export { type RecallLineage, type RecallSource, recallLineage } from "./recall-sources.js";
export { createRecallTool, type RecallToolOptions } from "./recall-tool.js";
export {
  COUNT_BYTES,
  MAX_SEARCH_BYTES,
  type RecallHit,
  type SearchResult,
  searchSessions,
} from "./search-session.js";
export { SessionStructure, type TurnStatus } from "./session-structure.js";
