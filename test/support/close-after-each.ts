import { afterEach } from "vitest";

export interface Closable {
  close(): Promise<unknown>;
}

/**
 * Call at the top of a test file: returns `closeAfter`, which hands back what it is given and
 * closes it (all together) after the test that started it.
 */
export function closeAfterEach(): <T extends Closable>(thing: T) => T {
  const closing: Closable[] = [];
  afterEach(async () => {
    await Promise.all(closing.splice(0).map((thing) => thing.close()));
  });
  return (thing) => {
    closing.push(thing);
    return thing;
  };
}
