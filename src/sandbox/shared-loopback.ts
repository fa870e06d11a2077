import { spawn } from "node:child_process";
import type { Socket } from "node:net";
import type { Readable } from "node:stream";

/** How long bubblewrap may take to report the namespace holder's pid. */
const START_TIMEOUT_MS = 5000;

/**
 * A network namespace with nothing but a loopback, held open for a run by one idle process under
 * bubblewrap, that later commands join (nsenter into its user and network namespaces, then
 * bubblewrap as usual without --unshare-net). With the network off every command otherwise has a
 * loopback of its own, so a server started in the background could not be reached by the next
 * command; joined, they share one, still cut off from the host's and from any other network.
 * The holder dies with panto (--die-with-parent, and its stdin pipe closing) and with `close`.
 */
export class SharedLoopback {
  private constructor(
    private readonly holder: ReturnType<typeof spawn>,
    private readonly pid: number,
    private readonly nsenter: string,
  ) {}

  /** Starts the holder; rejects when it cannot (the caller keeps one namespace per command). */
  static start(bwrap: string, nsenter: string): Promise<SharedLoopback> {
    const holder = spawn(
      bwrap,
      [
        "--die-with-parent",
        "--unshare-user",
        "--unshare-net",
        "--ro-bind",
        "/",
        "/",
        "--info-fd",
        "3",
        "--",
        // Reads its stdin, a pipe only panto holds, until panto is gone; writes nothing.
        "/bin/cat",
      ],
      { stdio: ["pipe", "ignore", "ignore", "pipe"] },
    );
    return new Promise((resolve, reject) => {
      const info = holder.stdio[3] as Readable;
      let text = "";
      const timer = setTimeout(
        () => fail(new Error("bubblewrap did not report the namespace's process")),
        START_TIMEOUT_MS,
      );
      const fail = (error: Error): void => {
        clearTimeout(timer);
        holder.kill("SIGKILL");
        reject(error);
      };
      holder.on("error", fail);
      holder.on("exit", () => fail(new Error("the namespace's process exited")));
      info.setEncoding("utf8");
      info.on("data", (chunk: string) => {
        text += chunk;
        const pid = /"child-pid"\s*:\s*(\d+)/.exec(text)?.[1];
        if (pid === undefined) return;
        clearTimeout(timer);
        holder.removeAllListeners("exit");
        holder.unref();
        (holder.stdin as Socket | null)?.unref();
        (info as Socket).unref();
        resolve(new SharedLoopback(holder, Number(pid), nsenter));
      });
    });
  }

  /** The command that runs the rest of an argv inside the shared namespaces. */
  prefix(): string[] {
    return [this.nsenter, "--target", String(this.pid), "--user", "--net", "--preserve-credentials", "--"];
  }

  close(): void {
    this.holder.stdin?.destroy();
    this.holder.kill("SIGKILL");
  }
}
