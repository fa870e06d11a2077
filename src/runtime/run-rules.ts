import type { RuleVerdict } from "../agent/index.js";
import type { ToolCallBlock } from "../core/index.js";
import type { RulePlaces, SourcedRule } from "../permissions/index.js";
import type { Tool } from "../tools/index.js";

/** Where an "always" answer keeps the rules it adds. */
export type RulePlace = "session" | "local" | "user";

type RulesModule = typeof import("./permission-rules-check.js");

/**
 * The permission rules in force in one run: every config file's, then those the user adds by
 * answering "always" (for the session, or saved to the project's local file or the user's config
 * and in force at once). `list` is live: `/permissions` shows what is in force now. The rules'
 * code loads only once there is a rule (or a question to suggest one for).
 */
export class RunRules {
  readonly list: SourcedRule[];
  readonly #places: RulePlaces;
  readonly #cwd: string;
  readonly #files: { local: string; user: string };
  #module: RulesModule | undefined;
  #check: ((call: ToolCallBlock, tool: Tool) => RuleVerdict | undefined) | undefined;
  #readDenied: ((file: string) => string | undefined) | undefined;

  private constructor(
    loaded: readonly SourcedRule[],
    places: RulePlaces,
    cwd: string,
    files: { local: string; user: string },
  ) {
    this.list = [...loaded];
    this.#places = places;
    this.#cwd = cwd;
    this.#files = files;
  }

  static async create(
    loaded: readonly SourcedRule[] | undefined,
    places: RulePlaces,
    cwd: string,
    files: { local: string; user: string },
  ): Promise<RunRules> {
    const rules = new RunRules(loaded ?? [], places, cwd, files);
    if (rules.list.length > 0) await rules.#rebuild();
    return rules;
  }

  /** The files an "always" may save rules to: the project's local file and the user's config. */
  get files(): { readonly local: string; readonly user: string } {
    return this.#files;
  }

  /** The agent's `permissionRules`: the verdict of the rules in force on one call, if any. */
  readonly check = (call: ToolCallBlock, tool: Tool): RuleVerdict | undefined => this.#check?.(call, tool);

  /** The agent's `readDenied`: the deny rule that keeps a file out of searches, if any. */
  readonly readDenied = (file: string): string | undefined => this.#readDenied?.(file);

  /** The allow rules an "always" for `call` would add (see suggestRules); none for a call no rule can name. */
  async suggest(call: ToolCallBlock): Promise<string[]> {
    const module = await this.#load();
    const target = module.permissionCallOf(call, this.#cwd);
    return target === undefined ? [] : module.suggestRules(target, this.#places);
  }

  /**
   * Adds `rules` to the allow list: in force at once, and kept where `place` says (a file's are
   * written there first, so a rule that could not be saved is not in force either). Returns the file
   * written, if any. Rejects with a ConfigError naming the file when it cannot be written.
   */
  async allow(rules: readonly string[], place: RulePlace): Promise<string | undefined> {
    const module = await this.#load();
    const file = place === "session" ? undefined : this.#files[place];
    if (file !== undefined) {
      const { addPermissionRule } = await import("../config/add-permission-rule.js");
      for (const rule of rules) await addPermissionRule(file, "allow", rule);
    }
    for (const text of rules) {
      const parsed = module.parsePermissionRule(text);
      if (!("rule" in parsed)) continue;
      if (this.list.some((rule) => rule.list === "allow" && rule.text === text && rule.file === file))
        continue;
      const index = this.list.filter((rule) => rule.list === "allow" && rule.file === file).length;
      const layer = place === "session" ? "session" : place;
      this.list.push({ ...parsed, list: "allow", layer, index, ...(file === undefined ? {} : { file }) });
    }
    await this.#rebuild();
    return file;
  }

  /**
   * Takes `rule` (one of `list`) out of force at once, and out of its file when it came from one
   * (validated and written whole, as an "always" writes). The other rules of that file's list move
   * up one place, as in the file. Returns false when the file no longer held the rule (changed
   * since panto read it): it is out of force all the same. Rejects with a ConfigError naming the
   * file when it cannot be rewritten (the rule then stays in force). Managed rules are the
   * caller's to refuse: this would rewrite their file like any other.
   */
  async remove(rule: SourcedRule): Promise<boolean> {
    let inFile = true;
    if (rule.file !== undefined) {
      const { removePermissionRule } = await import("../config/remove-permission-rule.js");
      inFile = await removePermissionRule(rule.file, rule.list, rule.text, rule.index);
    }
    const at = this.list.indexOf(rule);
    if (at >= 0) this.list.splice(at, 1);
    if (inFile)
      this.list.forEach((other, position) => {
        if (other.file === rule.file && other.list === rule.list && other.index > rule.index)
          this.list[position] = { ...other, index: other.index - 1 };
      });
    await this.#rebuild();
    return inFile;
  }

  async #load(): Promise<RulesModule> {
    this.#module ??= await import("./permission-rules-check.js");
    return this.#module;
  }

  async #rebuild(): Promise<void> {
    const module = await this.#load();
    this.#check = module.permissionRulesCheck(this.list, this.#places, this.#cwd);
    this.#readDenied = module.readDeniedCheck(this.list, this.#places);
  }
}
