import type { Interface, Key } from "node:readline";
import type { ToolCallBlock } from "../../../core/index.js";
import { visible } from "../../../runtime/format-text.js";
import type { ApprovalAnswer, AskedRequest } from "../../../runtime/front-end.js";
import type { RulePlace } from "../../../runtime/run-rules.js";
import type { Tool } from "../../../tools/index.js";
import type { Style } from "../../shared/style.js";
import {
  approvalQuestion,
  describeApproval,
  parseApprovalAnswer,
  parseRulePlace,
  RULE_PLACE_QUESTION,
  type RuleFiles,
  rulePlaceChoices,
} from "./approval-preview.js";
import type { MutableOutput } from "./mutable-output.js";
import type { TerminalRenderer } from "./terminal-renderer.js";

type Choice = NonNullable<ReturnType<typeof parseApprovalAnswer>>;

interface Pending {
  toolName: string;
  /**
   * "choice" until y, a or n; then "reason", while the user may say why they said no, or "place",
   * while they say where the rules an "always" adds are kept.
   */
  phase: "choice" | "reason" | "place";
  /** The rules an "always" adds, with the files they may be saved to; none: "always" allows the tool. */
  rules: { suggested: readonly string[]; files: RuleFiles } | undefined;
  output: MutableOutput;
  resolve: (answer: ApprovalAnswer) => void;
}

const ECHO: Record<Choice, string> = { once: "yes", always: "always", no: "no" };

/**
 * The permission question before write, edit and bash: shows what the call will do, then takes
 * one key: y (this once), a (always), n or Enter (no). Other keys get a reminder of the choices.
 * When the question comes with suggested rules, a shows them as they will be written and one more
 * key says where to keep them: s or Enter for this session, l for the project's local file, u for
 * the user's config (the run adds them, in force at once); without, a allows the tool for the
 * session. After no, one line of reason may follow (Enter alone gives none); the model is told it.
 * Without a terminal (no keys) each answer is read as a line. Text typed ahead before the question
 * is put aside and restored.
 */
export class ApprovalPrompt {
  readonly #renderer: TerminalRenderer;
  readonly #style: Style;
  #pending: Pending | undefined;

  constructor(renderer: TerminalRenderer, style: Style) {
    this.#renderer = renderer;
    this.#style = style;
  }

  /** True while a question waits for its answer: the next line typed is the answer. */
  get waiting(): boolean {
    return this.#pending !== undefined;
  }

  /**
   * Asks about one call (`origin`: the child agent asking, when not the main one; `ruleFiles`: where
   * rules an "always" adds may be saved); resolves when the user answers (or cancels).
   */
  ask(
    rl: Interface,
    output: MutableOutput,
    call: ToolCallBlock,
    tool: Tool,
    request: AskedRequest = { kind: "tool" },
    origin?: string,
    ruleFiles?: RuleFiles,
  ): Promise<ApprovalAnswer> {
    const typedAhead = takeLine(rl);
    const wasMuted = output.muted;
    output.muted = false;
    const toolName = tool.definition.name;
    const preview = describeApproval(call);
    // The label holds the model's description of the task: made visible like the arguments.
    if (origin !== undefined) this.#renderer.line(this.#style.yellow(`${visible(origin)} asks:`));
    if (preview.length > 0) this.#renderer.line(this.#style.bold(preview.join("\n")));
    if (request.kind === "escape") this.#renderer.line(this.#style.yellow(escapeNotice(request.reason)));
    const suggested = request.kind === "tool" ? (request.suggestedRules ?? []) : [];
    const rules =
      suggested.length > 0 && ruleFiles !== undefined ? { suggested, files: ruleFiles } : undefined;
    return new Promise((resolve) => {
      this.#pending = {
        toolName,
        phase: "choice",
        rules,
        output,
        resolve: (answer) => {
          this.#pending = undefined;
          output.muted = wasMuted;
          if (typedAhead !== "") rl.write(typedAhead);
          resolve(answer);
        },
      };
      const question =
        request.kind === "escape"
          ? ESCAPE_QUESTION
          : approvalQuestion(toolName, this.#renderer.columns, rules !== undefined);
      rl.setPrompt(this.#style.yellow(question));
      rl.prompt();
    });
  }

  /**
   * A key pressed while the question waits for y, a or n (or, after a, for s, l, u or Enter: where
   * to keep the rules); returns true when it was taken. Keys
   * with Ctrl (Ctrl-C, Ctrl-D) are left to readline, which cancels.
   */
  key(rl: Interface, text: string | undefined, key: Key): boolean {
    const pending = this.#pending;
    if (pending === undefined || pending.phase === "reason") return false;
    if (key.ctrl === true) return false;
    const enter = key.name === "return" || key.name === "enter";
    if (pending.phase === "place") {
      const place = enter ? "session" : /^[slu]$/i.test(text ?? "") ? parseRulePlace(text ?? "") : undefined;
      if (place === undefined) this.#remindPlace(rl, "\n");
      else {
        pending.output.write(`${place}\n`);
        this.#keep(pending, place);
      }
      return true;
    }
    const letter = /^[yan]$/i.test(text ?? "") ? (text ?? "") : undefined;
    const choice = enter ? "no" : letter === undefined ? undefined : parseApprovalAnswer(letter);
    if (choice === undefined) this.#remind(rl, pending, "\n");
    else {
      pending.output.write(`${ECHO[choice]}\n`);
      this.#choose(rl, pending, choice);
    }
    return true;
  }

  /** Takes a typed line: the reason after a no, or the answer itself where keys are not read. */
  answer(rl: Interface, line: string): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    if (pending.phase === "reason") {
      const reason = line.trim();
      this.#renderer.line(this.#style.dim(reason === "" ? "  denied" : "  denied; the model is told why"));
      pending.resolve(reason === "" ? "deny" : { deny: true, reason });
      return;
    }
    if (pending.phase === "place") {
      const place = parseRulePlace(line);
      if (place === undefined) this.#remindPlace(rl, "");
      else this.#keep(pending, place);
      return;
    }
    const choice = parseApprovalAnswer(line);
    if (choice === undefined) this.#remind(rl, pending, "");
    else this.#choose(rl, pending, choice);
  }

  /** Denies the waiting call (Ctrl-C, Ctrl-D). */
  cancel(): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    this.#renderer.line(this.#style.dim("\n  denied"));
    pending.resolve("deny");
  }

  #choose(rl: Interface, pending: Pending, choice: Choice): void {
    if (choice === "no") {
      pending.phase = "reason";
      rl.setPrompt(this.#style.dim("  why not? (told to the model; Enter for no reason): "));
      rl.prompt();
      return;
    }
    if (choice === "always" && pending.rules !== undefined) {
      pending.phase = "place";
      this.#renderer.line(rulePlaceChoices(pending.rules.suggested, pending.rules.files).join("\n"));
      rl.setPrompt(this.#style.yellow(RULE_PLACE_QUESTION));
      rl.prompt();
      return;
    }
    this.#renderer.line(this.#style.dim("  allowed"));
    pending.resolve(choice);
  }

  /** The rules are kept where the user said; the run adds them and says so (a run-notice). */
  #keep(pending: Pending, place: RulePlace): void {
    this.#renderer.line(this.#style.dim("  allowed"));
    pending.resolve({ allowRules: pending.rules?.suggested ?? [], saveTo: place });
  }

  #remindPlace(rl: Interface, lead: string): void {
    this.#renderer.line(
      this.#style.dim(
        `${lead}  answer s or Enter (this session only), l (the project's local file) or u (your user config)`,
      ),
    );
    rl.prompt();
  }

  /** Repeats the choices; `lead` ends the question's line first when no Enter did. */
  #remind(rl: Interface, pending: Pending, lead: string): void {
    this.#renderer.line(
      this.#style.dim(
        `${lead}  answer y (yes, this once), a (${pending.rules === undefined ? `always for ${pending.toolName} this session` : "always: save a rule"}) or n (no)`,
      ),
    );
    rl.prompt();
  }
}

/** Asked before a command leaves the sandbox: no "always", since every escape is asked again. */
const ESCAPE_QUESTION = "Run it outside the sandbox? [y]es this once · [N]o: ";

/** Why the question is asked: the command would run with the user's full rights. */
export function escapeNotice(reason: string): string {
  return `Outside the sandbox, with your full rights (network, every file you can write). The model's reason: ${visible(reason)}`;
}

/** Removes and returns what is typed on the prompt line (as Ctrl-E then Ctrl-U would). */
export function takeLine(rl: Interface): string {
  const typed = rl.line;
  if (typed !== "") {
    rl.write(null, { ctrl: true, name: "e" });
    rl.write(null, { ctrl: true, name: "u" });
  }
  return typed;
}
