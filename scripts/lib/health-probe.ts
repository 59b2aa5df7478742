/**
 * A health probe in a process of its own (`probeHealth`): a child Node process calls
 * `GET /api/v1/health` every 50 ms, one call at a time, for a number of seconds, and prints the
 * latencies (ms) as one JSON array.
 *
 * Why a process of its own: the benchmark's saturating clients live in the benchmark's process and read
 * ~3 MB answers; a probe sharing that event loop measured the benchmark's own delays (its idle p99 was
 * seen at 95–225 ms with the server idle) as the server's. Monitoring probes the server from outside.
 */
import { spawn } from "node:child_process";

const PROBE = `
const [baseUrl, seconds] = process.argv.slice(1);
const latencies = [];
const stopAt = performance.now() + Number(seconds) * 1000;
(async () => {
  // Untimed: the first call loads this process's HTTP client and opens its connection (60-120 ms on a
  // contended machine), a cost of the probe that a monitor, long running, pays once.
  await (await fetch(baseUrl + "/api/v1/health")).arrayBuffer();
  while (performance.now() < stopAt) {
    const started = performance.now();
    const response = await fetch(baseUrl + "/api/v1/health");
    await response.arrayBuffer();
    const elapsed = performance.now() - started;
    latencies.push(Math.round(elapsed * 10) / 10);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 50 - elapsed)));
  }
  process.stdout.write(JSON.stringify(latencies));
})().catch((error) => { console.error(error); process.exit(1); });
`;

/** Probes `baseUrl`'s health route for `seconds` from a child process; resolves with the latencies. */
export function probeHealth(baseUrl: string, seconds: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", PROBE, baseUrl, String(seconds)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`health probe exited ${code}: ${err.slice(0, 300)}`));
      try {
        resolve(JSON.parse(out) as number[]);
      } catch {
        reject(new Error(`health probe printed no latencies: ${out.slice(0, 300)}`));
      }
    });
  });
}
