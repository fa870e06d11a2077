import { formatCount } from "../../core/index.js";

/** One model request a check is about to make. */
export interface PlannedRequest {
  what: string;
  /** Local estimate of its size. */
  tokens: number;
}

/** The line said before any model call: how many requests, about how many tokens, and what each is. */
export function describePlan(planned: readonly PlannedRequest[]): string {
  const total = planned.reduce((sum, request) => sum + request.tokens, 0);
  const parts = planned.map((request) => `${request.what}: about ${formatCount(request.tokens)} tokens`);
  const noun = planned.length === 1 ? "request" : "requests";
  return `panto fidelity: ${planned.length} model ${noun}, about ${formatCount(total)} tokens in all (${parts.join("; ")})\n`;
}
