// `npm test`: every check CI runs, in two stages of two lanes each, with each step's time at the end.
// The machine CI runs on has two cores and the slow steps leave them idle for long stretches (a
// single-threaded lint or typecheck beside the bundler; tests waiting on servers, browsers and
// databases), so lanes overlap what does not depend on each other: lint and typecheck beside the
// build, then Vitest beside Playwright (both need the build). A lane stops at its first failure; the
// run fails if any lane did.
import { spawn } from "node:child_process";

const STAGES = [
  [["lint", "typecheck"], ["build"]],
  [["vitest"], ["playwright"]],
];

const COMMANDS = {
  lint: ["npm", ["run", "--silent", "lint"]],
  typecheck: ["npm", ["run", "--silent", "typecheck"]],
  build: ["npm", ["run", "--silent", "build"]],
  vitest: ["npx", ["vitest", "run"]],
  playwright: ["npx", ["playwright", "test"]],
};

const timings = [];
// The tail of each failed step, replayed after every lane has finished: when two lanes interleave,
// a failure printed early is otherwise buried under the other lane's output.
const FAILURE_TAIL_LINES = 80;
const failureTails = [];

function runStep(name) {
  const [command, args] = COMMANDS[name];
  const started = Date.now();
  const tail = [];
  const keep = (line) => {
    tail.push(line);
    if (tail.length > FAILURE_TAIL_LINES) tail.shift();
  };
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: process.env });
    const prefix = `[${name}] `;
    for (const stream of [child.stdout, child.stderr]) {
      let pending = "";
      stream.on("data", (chunk) => {
        pending += chunk.toString();
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) {
          keep(line);
          process.stdout.write(prefix + line + "\n");
        }
      });
      stream.on("end", () => {
        if (!pending) return;
        keep(pending);
        process.stdout.write(prefix + pending + "\n");
      });
    }
    child.on("close", (code) => {
      timings.push({ name, seconds: (Date.now() - started) / 1000, ok: code === 0 });
      if (code !== 0) failureTails.push({ name, lines: tail });
      resolve(code === 0);
    });
  });
}

async function runLane(steps) {
  for (const step of steps) if (!(await runStep(step))) return false;
  return true;
}

const started = Date.now();
let ok = true;
for (const lanes of STAGES) {
  const results = await Promise.all(lanes.map(runLane));
  if (results.includes(false)) {
    ok = false;
    break;
  }
}
const total = (Date.now() - started) / 1000;
for (const { name, lines } of failureTails) {
  console.log(`\n── ${name} failed; its last ${lines.length} lines ──`);
  for (const line of lines) console.log(line);
}
console.log("\nstep          time      result");
for (const { name, seconds, ok: passed } of timings)
  console.log(
    `${name.padEnd(13)} ${`${Math.floor(seconds / 60)}m ${Math.round(seconds % 60)}s`.padStart(8)}  ${passed ? "ok" : "FAILED"}`,
  );
console.log(
  `${"total".padEnd(13)} ${`${Math.floor(total / 60)}m ${Math.round(total % 60)}s`.padStart(8)}  ${ok ? "ok" : "FAILED"}`,
);
process.exit(ok ? 0 : 1);
