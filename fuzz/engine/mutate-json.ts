import type { Random } from "./random.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Values that tend to break readers: wrong types, edges of numbers, empty and odd strings. */
const ODD_VALUES: readonly Json[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 2,
  2147483648,
  "",
  " ",
  "0",
  "-1",
  "NaN",
  "\u0000",
  "\u001b[2J",
  "\u2028",
  "\ud800",
  "</script>",
  "__proto__",
  "constructor",
  [],
  {},
  [null],
  { type: null },
];

/**
 * Structure-aware mutation of one JSON value: picks a node at random and changes it the way a hand
 * edit, an older or newer writer or a broken proxy would (another type, a dictionary word, a key
 * dropped or added, an element repeated or removed). Returns undefined when `text` is not JSON.
 */
export function mutateJsonText(
  text: string,
  random: Random,
  dictionary: readonly string[],
): string | undefined {
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object") return JSON.stringify(oddValue(random, dictionary));
  const nodes: Array<{ parent: Json[] | { [key: string]: Json }; key: string | number }> = [];
  collect(value, nodes, 0);
  if (nodes.length === 0) return JSON.stringify(value);
  const { parent, key } = random.pick(nodes);
  changeNode(parent, key, random, dictionary);
  return JSON.stringify(value);
}

function collect(
  value: Json,
  nodes: Array<{ parent: Json[] | { [key: string]: Json }; key: string | number }>,
  depth: number,
): void {
  if (value === null || typeof value !== "object" || depth > 12) return;
  if (Array.isArray(value)) {
    value.forEach((child, index) => {
      nodes.push({ parent: value, key: index });
      collect(child, nodes, depth + 1);
    });
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    nodes.push({ parent: value, key });
    collect(child, nodes, depth + 1);
  }
}

function changeNode(
  parent: Json[] | { [key: string]: Json },
  key: string | number,
  random: Random,
  dictionary: readonly string[],
): void {
  const record = parent as Record<string | number, Json>;
  const current = record[key] as Json;
  switch (random.below(6)) {
    case 0:
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete record[key];
      return;
    case 1:
      if (Array.isArray(parent)) parent.splice(key as number, 0, structuredClone(current));
      else record[`${key}${random.below(3)}`] = structuredClone(current);
      return;
    case 2:
      if (!Array.isArray(parent) && dictionary.length > 0)
        record[cleanWord(random.pick(dictionary))] = oddValue(random, dictionary);
      else record[key] = oddValue(random, dictionary);
      return;
    case 3:
      record[key] = typeof current === "string" ? stretch(current, random) : oddValue(random, dictionary);
      return;
    case 4:
      record[key] = typeof current === "number" ? nearby(current, random) : oddValue(random, dictionary);
      return;
    default:
      record[key] = oddValue(random, dictionary);
  }
}

function oddValue(random: Random, dictionary: readonly string[]): Json {
  if (dictionary.length > 0 && random.oneIn(2)) return cleanWord(random.pick(dictionary));
  return structuredClone(random.pick(ODD_VALUES));
}

/** Dictionary words are often written with their quotes; as a value or key, the bare word. */
function cleanWord(word: string): string {
  return word.replace(/^"|"$/g, "").replace(/":?$/, "");
}

function stretch(text: string, random: Random): string {
  if (random.oneIn(2)) return text.slice(0, random.below(text.length + 1));
  return text.repeat(2 + random.below(40));
}

function nearby(value: number, random: Random): number {
  return random.pick([value + 1, value - 1, -value, value * 2 ** 31, 0, value / 3]);
}
