/** What `npm run fuzz -- ...` asks for. */
export interface FuzzOptions {
  /** Target names; empty for all. */
  targets: string[];
  /** Fuzzing time per target, wall clock (default 60 s; the smoke run's default is 3 s). */
  seconds: number | undefined;
  /** Or: CPU time per target, this process's (a campaign's measure on a shared machine). */
  cpuSeconds: number | undefined;
  /** Keep the growing corpus and the finds here, one folder per target. */
  work: string | undefined;
  seed: number;
  /** Seeds, then a few seconds of fuzzing with a fixed seed, nothing written: `npm test`'s run. */
  smoke: boolean;
  /** Run these input files once each (reproduce a find). */
  run: string[];
  /** Shrink this failing input; writes FILE.min. */
  minimise: string | undefined;
  list: boolean;
  /** Print one JSON line of figures per target on stdout. */
  json: boolean;
}

export const FUZZ_USAGE = `usage: npm run fuzz -- [TARGET...] [--seconds N | --cpu-seconds N] [--work DIR] [--seed N]
       npm run fuzz -- --smoke [TARGET...] [--seconds N]
       npm run fuzz -- TARGET --run FILE...      (run inputs once: reproduce a find)
       npm run fuzz -- TARGET --minimise FILE    (shrink a failing input into FILE.min)
       npm run fuzz -- --list`;

/** Parses the arguments after `npm run fuzz --`; throws a message naming the bad argument. */
export function parseFuzzOptions(argv: readonly string[]): FuzzOptions {
  const options: FuzzOptions = {
    targets: [],
    seconds: undefined,
    cpuSeconds: undefined,
    work: undefined,
    seed: Date.now() % 2 ** 31,
    smoke: false,
    run: [],
    minimise: undefined,
    list: false,
    json: false,
  };
  const args = [...argv];
  const value = (flag: string): string => {
    const next = args.shift();
    if (next === undefined || next.startsWith("--")) throw new Error(`${flag} needs a value`);
    return next;
  };
  const count = (flag: string): number => {
    const text = value(flag);
    const number = Number(text);
    if (!Number.isFinite(number) || number < 0) throw new Error(`${flag} needs a number, not "${text}"`);
    return number;
  };
  while (args.length > 0) {
    const arg = args.shift() as string;
    if (arg === "--seconds") options.seconds = count(arg);
    else if (arg === "--cpu-seconds") options.cpuSeconds = count(arg);
    else if (arg === "--work") options.work = value(arg);
    else if (arg === "--seed") options.seed = count(arg);
    else if (arg === "--smoke") options.smoke = true;
    else if (arg === "--list") options.list = true;
    else if (arg === "--json") options.json = true;
    else if (arg === "--minimise") options.minimise = value(arg);
    else if (arg === "--run") {
      while (args[0] !== undefined && !args[0].startsWith("--")) options.run.push(args.shift() as string);
      if (options.run.length === 0) throw new Error("--run needs input files");
    } else if (arg.startsWith("-")) throw new Error(`unknown option ${arg}`);
    else options.targets.push(arg);
  }
  if ((options.run.length > 0 || options.minimise !== undefined) && options.targets.length !== 1)
    throw new Error("--run and --minimise take exactly one target");
  return options;
}
