// Reads a password without echoing it (a terminal) or as one line of standard input (scripts).
import { createInterface } from "node:readline";

async function readLine(): Promise<string> {
  const rl = createInterface({ input: process.stdin, terminal: false });
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return "";
}

async function promptHidden(prompt: string): Promise<string> {
  process.stdout.write(prompt);
  process.stdin.setRawMode(true);
  process.stdin.resume();
  let value = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString("utf8")) {
        if (char === "\r" || char === "\n") {
          process.stdin.setRawMode(false);
          process.stdin.pause();
          process.stdin.off("data", onData);
          process.stdout.write("\n");
          return resolve(value);
        }
        if (char === "\u0003") return reject(new Error("Cancelled."));
        value = char === "\u007f" ? value.slice(0, -1) : value + char;
      }
    };
    process.stdin.on("data", onData);
  });
}

/** The password for a new user: from stdin when asked, else prompted twice on a terminal. */
export async function readPassword(fromStdin: boolean): Promise<string> {
  if (fromStdin || !process.stdin.isTTY) return readLine();
  const first = await promptHidden("Password: ");
  const second = await promptHidden("Repeat the password: ");
  if (first !== second) throw new Error("The two passwords differ.");
  return first;
}
