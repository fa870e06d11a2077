import type { Turn } from "../core/index.js";
import type { FidelityFact } from "./fidelity-fact.js";
import { keyTerms } from "./key-terms.js";

/** An instruction's text: at most this many characters (its key terms are taken from all of it). */
export const INSTRUCTION_CHARS = 200;

/** Words a request starts with when it is an order: "run the tests", "don't touch main". */
const IMPERATIVE_VERBS = new Set(
  (
    "add avoid build bump call change check clean clear commit configure copy create debug delete " +
    "deploy disable document drop edit enable exclude ignore include limit log migrate mock " +
    "note pass patch pin prefer print publish release rerun retry return save send wrap " +
    "ensure explain find fix format give implement improve install keep leave list look make merge " +
    "move name open port put read refactor remove rename replace report restore revert rewrite run " +
    "search set show skip sort split start stop switch tell test try turn undo update upgrade use " +
    "verify write don't do dont never always"
  ).split(" "),
);

/** Phrases that make a sentence a request wherever they stand. */
const DIRECTIVE =
  /\b(please|must|mustn't|never|always|don't|do not|make sure|ensure|should|shouldn't|need to|needs to|have to|can you|could you|would you|i want|i'd like|let's)\b/i;

/** Words that may stand before the verb of an order: "please run", "then also fix". */
const LEAD_WORDS = /^(?:(?:please|and|then|also|now|first|next|finally|so|just|ok|okay),?\s+)+/i;

/**
 * The user's explicit instructions in `turns`, oldest first, each once: every sentence (or line) of
 * a user message that reads as a request, i.e. it starts with an imperative verb (after words such
 * as "please" or "then") or holds a directive phrase ("must", "never", "make sure", "can you"...),
 * and has at least one key term to score it by. Deterministic and model-free.
 */
export function extractInstructions(turns: readonly Turn[]): FidelityFact[] {
  const facts: FidelityFact[] = [];
  const seen = new Set<string>();
  for (const turn of turns)
    for (const message of turn.messages) {
      if (message.role !== "user") continue;
      const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
      for (const sentence of splitSentences(text)) {
        if (!isRequest(sentence) || keyTerms(sentence).length === 0) continue;
        const key = sentence.toLowerCase();
        if (seen.has(key)) continue;
        seen.add(key);
        facts.push({ kind: "instruction", text: capped(sentence) });
      }
    }
  return facts;
}

/** Lines, then sentences within a line (a full stop, "!" or "?" before a space ends one). */
export function splitSentences(text: string): string[] {
  return text
    .split(/\r?\n/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=\S)/))
    .map((sentence) => sentence.replace(/^\s*(?:[-*•>]|\d+[.)])\s*/, "").trim())
    .filter((sentence) => sentence !== "");
}

function isRequest(sentence: string): boolean {
  if (DIRECTIVE.test(sentence)) return true;
  const first = sentence.replace(LEAD_WORDS, "").split(/\s+/)[0]?.toLowerCase() ?? "";
  return IMPERATIVE_VERBS.has(first.replace(/[^a-z']/g, ""));
}

function capped(sentence: string): string {
  return sentence.length <= INSTRUCTION_CHARS ? sentence : `${sentence.slice(0, INSTRUCTION_CHARS - 1)}…`;
}
