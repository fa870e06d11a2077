/** ANSI styling that turns into plain text when colour is off. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/** Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org) or TERM is dumb. */
export function colourEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (stream.isTTY !== true) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return env.TERM !== "dumb";
}

export function createStyle(enabled: boolean): Style {
  const wrap =
    (open: number, close: number) =>
    (text: string): string =>
      enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}
