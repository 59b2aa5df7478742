import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";
import { freePort } from "./server";

/**
 * A real SMTP server on 127.0.0.1 (smtp-server), parsing every accepted message with mailparser.
 * `refuse(n, code)` makes it answer the next n messages with that code (421/451: try later; 550: never).
 */
export interface TestSmtpServer {
  readonly port: number;
  readonly url: string;
  readonly received: ParsedMail[];
  refuse(count: number, code?: number): void;
  /** Answers every message with `code` (default 421: try later) until `ms` from now. */
  refuseFor(ms: number, code?: number): void;
  /** Answers every message with `code` (default 421: try later) until acceptAgain(); `refused` counts them. */
  refuseUntilAccepting(code?: number): void;
  acceptAgain(): void;
  /** Messages refused so far. */
  readonly refused: number;
  /** Resolves once `count` messages have been accepted in all. */
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  stop(): Promise<void>;
}

export async function startSmtpServer(fixedPort?: number): Promise<TestSmtpServer> {
  const port = fixedPort ?? (await freePort());
  const received: ParsedMail[] = [];
  let refusals = 0;
  let refusalCode = 451;
  let refusingUntil = 0;
  let refused = 0;
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refusals > 0 || Date.now() < refusingUntil) {
          refusals = Math.max(0, refusals - 1);
          refused += 1;
          const error = Object.assign(new Error(refusalCode >= 500 ? "Mailbox unavailable" : "Try again later"), {
            responseCode: refusalCode,
          });
          callback(error);
          return;
        }
        simpleParser(Buffer.concat(chunks))
          .then((mail) => {
            received.push(mail);
            callback();
            for (const wake of waiters.splice(0)) wake();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse(count, code = 451) {
      refusals = count;
      refusalCode = code;
    },
    refuseFor(ms, code = 421) {
      refusingUntil = Date.now() + ms;
      refusalCode = code;
    },
    refuseUntilAccepting(code = 421) {
      refusingUntil = Number.POSITIVE_INFINITY;
      refusalCode = code;
    },
    acceptAgain() {
      refusingUntil = 0;
      refusals = 0;
    },
    get refused() {
      return refused;
    },
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${received.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return received;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
