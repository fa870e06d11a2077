import { malformedAnswer } from "./check-wire.js";

/**
 * What is wrong with a value read off the wire: where (a path of keys and indices), zod's words
 * for it, and whether it stops a union's option (a wrong type does; a failed bound or refinement
 * does not). The adapters checked every stream event with zod; these checks replace it on the
 * stream's path, cost a few comparisons when nothing is wrong, and keep zod's messages and its
 * rules for choosing the first problem (test/providers/wire-shape-equivalence.test.ts compares
 * them with zod on generated events).
 */
export interface WireIssue {
  readonly path: ReadonlyArray<string | number>;
  readonly message: string;
  readonly aborted: boolean;
}

/** Checks one value: undefined when well-formed, else its first problem. Allocates nothing when well-formed. */
export type WireShape = (value: unknown) => WireIssue | undefined;

/**
 * Returns `value` as it is when it has the shape, or throws {@link malformedAnswer} naming `what`
 * and the first problem's path, in the words zod used (`chunk at usage.prompt_tokens: Too small: …`).
 */
export function checkShape<T>(shape: WireShape, value: unknown, provider: string, what: string): T {
  const issue = shape(value);
  if (issue === undefined) return value as T;
  const path = issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
  throw malformedAnswer(provider, `${what}${path}: ${issue.message}`);
}

const INVALID: WireIssue = { path: [], message: "Invalid input", aborted: true };

/** The type name zod's messages give a value ("received null", "received array", "received NaN"). */
function receivedType(value: unknown): string {
  if (typeof value === "number") return Number.isFinite(value) ? "number" : String(value);
  if (typeof value !== "object") return typeof value;
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const maker = (value as { constructor?: { name?: string } }).constructor;
  if (Object.getPrototypeOf(value) !== Object.prototype && "constructor" in value && maker)
    return String(maker.name);
  return "object";
}

function wrongType(expected: string, value: unknown): WireIssue {
  return {
    path: [],
    message: `Invalid input: expected ${expected}, received ${receivedType(value)}`,
    aborted: true,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The issue at one step deeper: `key` put in front of its path. */
function under(key: string | number, issue: WireIssue, aborted = issue.aborted): WireIssue {
  return { path: [key, ...issue.path], message: issue.message, aborted };
}

/** A string, at least `minLength` characters long (zod's `z.string().min(n)`). */
export function string(minLength = 0): WireShape {
  const tooShort: WireIssue = {
    path: [],
    message: `Too small: expected string to have >=${minLength} characters`,
    aborted: false,
  };
  return (value) => {
    if (typeof value !== "string") return wrongType("string", value);
    return value.length < minLength ? tooShort : undefined;
  };
}

export const boolean: WireShape = (value) =>
  typeof value === "boolean" ? undefined : wrongType("boolean", value);

/** Anything at all (zod's `z.unknown()`). */
export const unknown: WireShape = () => undefined;

/** A finite number not below zero (`z.number().nonnegative()`). */
export const count: WireShape = (value) => {
  if (typeof value !== "number" || !Number.isFinite(value)) return wrongType("number", value);
  return value < 0 ? NEGATIVE : undefined;
};
const NEGATIVE: WireIssue = { path: [], message: "Too small: expected number to be >=0", aborted: false };
const NOT_INT: WireIssue = {
  path: [],
  message: "Invalid input: expected int, received number",
  aborted: true,
};
const ABOVE_SAFE: WireIssue = {
  path: [],
  message: `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}`,
  aborted: false,
};
const BELOW_SAFE: WireIssue = {
  path: [],
  message: `Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}`,
  aborted: false,
};

/** A safe integer not below zero (`z.number().int().nonnegative()`). */
export const index: WireShape = (value) => {
  if (typeof value !== "number" || !Number.isFinite(value)) return wrongType("number", value);
  if (!Number.isInteger(value)) return NOT_INT;
  if (value > Number.MAX_SAFE_INTEGER) return ABOVE_SAFE;
  if (value < Number.MIN_SAFE_INTEGER) return BELOW_SAFE;
  return value < 0 ? NEGATIVE : undefined;
};

/** Exactly this string (`z.literal`). */
export function literal(expected: string): WireShape {
  const issue: WireIssue = { path: [], message: `Invalid input: expected "${expected}"`, aborted: true };
  return (value) => (value === expected ? undefined : issue);
}

/** A string that is none of `excluded` (`z.string().refine((type) => !excluded.has(type))`). */
export function stringNotIn(excluded: ReadonlySet<string>): WireShape {
  const refused: WireIssue = { ...INVALID, aborted: false };
  return (value) => {
    if (typeof value !== "string") return wrongType("string", value);
    return excluded.has(value) ? refused : undefined;
  };
}

/** Absent or the shape (`.optional()`). */
export function optional(shape: WireShape): WireShape {
  return (value) => (value === undefined ? undefined : shape(value));
}

/** Absent, null or the shape (`.nullish()`). */
export function nullish(shape: WireShape): WireShape {
  return (value) => (value === undefined || value === null ? undefined : shape(value));
}

/**
 * An object with these fields, others allowed (`z.looseObject`). Every field is checked, as zod
 * does: the first problem is reported, but a wrong type in any field decides a union.
 */
export function object(fields: Readonly<Record<string, WireShape>>): WireShape {
  const entries = Object.entries(fields);
  return (value) => {
    if (!isObject(value)) return wrongType("object", value);
    let first: WireIssue | undefined;
    let aborted = false;
    for (const [key, shape] of entries) {
      const issue = shape(value[key]);
      if (issue === undefined) continue;
      first ??= under(key, issue);
      aborted ||= issue.aborted;
    }
    return first === undefined ? undefined : { ...first, aborted };
  };
}

/** A list whose every item has the shape (`z.array`). */
export function array(item: WireShape): WireShape {
  return (value) => {
    if (!Array.isArray(value)) return wrongType("array", value);
    let first: WireIssue | undefined;
    let aborted = false;
    for (let position = 0; position < value.length; position++) {
      const issue = item(value[position]);
      if (issue === undefined) continue;
      first ??= under(position, issue);
      aborted ||= issue.aborted;
    }
    return first === undefined ? undefined : { ...first, aborted };
  };
}

/** A plain object of any values (`z.record(z.string(), z.unknown())` over parsed JSON). */
export const record: WireShape = (value) => (isPlainObject(value) ? undefined : wrongType("record", value));

function isPlainObject(value: unknown): boolean {
  if (!isObject(value)) return false;
  const maker = value.constructor;
  if (maker === undefined || typeof maker !== "function") return true;
  const prototype: unknown = maker.prototype;
  return isObject(prototype) && Object.hasOwn(prototype, "isPrototypeOf");
}

/**
 * One of the shapes (`z.union`), with zod's choice of what to report when none fits: the problem
 * of the one option that failed on no wrong type, if there is exactly one such option, or else
 * "Invalid input" at the union itself.
 */
export function union(...options: readonly WireShape[]): WireShape {
  return (value) => {
    const issues: WireIssue[] = [];
    for (const option of options) {
      const issue = option(value);
      if (issue === undefined) return undefined;
      issues.push(issue);
    }
    const continuing = issues.filter((issue) => !issue.aborted);
    return continuing.length === 1 ? continuing[0] : INVALID;
  };
}
