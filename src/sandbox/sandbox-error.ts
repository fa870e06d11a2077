/**
 * The sandbox cannot be set up as configured (a writable root that does not exist, no bubblewrap,
 * namespaces refused): a setup error the CLI reports before anything runs, with how to fix it.
 */
export class SandboxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SandboxError";
  }
}

/**
 * A file tool's access refused by the sandbox. `rule` names the rule that refused it, as the model
 * and the user see it in the message.
 */
export class SandboxRefusal extends Error {
  readonly rule: SandboxRule;

  constructor(rule: SandboxRule, message: string) {
    super(message);
    this.name = "SandboxRefusal";
    this.rule = rule;
  }
}

/** The rules that can refuse an access. */
export type SandboxRule =
  | "outside-writable-roots"
  | "protected-path"
  | "hidden-credentials"
  | "outside-sandbox";
