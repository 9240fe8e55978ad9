// First run: while no user exists, a one-time setup token printed to the console lets the
// person at the console create the first administrator from the web app.
import { timingSafeEqual } from "node:crypto";
import { hashSecret, newSecret } from "./tokens.ts";

/** Holds this process's setup token (in memory: it only matters before the first user). */
export class SetupTokens {
  private hash: string | undefined;

  /** Issues a new token and returns it for printing. */
  issue(): string {
    const token = newSecret("setup_");
    this.hash = hashSecret(token);
    return token;
  }

  /** True when the token is the one issued and not used yet. */
  matches(token: string): boolean {
    if (!this.hash) return false;
    return timingSafeEqual(Buffer.from(hashSecret(token)), Buffer.from(this.hash));
  }

  /** Ends the token's life once setup is done: it works once. */
  revoke(): void {
    this.hash = undefined;
  }

  get isIssued(): boolean {
    return this.hash !== undefined;
  }
}
