// The one switch between the two forms of a task in every JavaScript contestant (node-*,
// and bun and deno, which run node-async-await's and node-promises' code), read once at
// start-up from the environment variable TASKBENCH_JS_TASKS (docs/FAIRNESS.md#node-async-await).
//
// A task with nothing to wait for (spawn's tasks, skynet's leaves) can finish inside the
// call that spawns it: `async (i) => i` or `Promise.resolve(i)` is already settled when
// its spawner moves on, so no task ever passes the event loop's scheduler, where every
// other runtime's task is started by its scheduler. The scheduled form, the default and
// the one ranked, makes each such task wait once on its library's own queue before it
// returns (`await null`, a library's `resolve().then`, `process.nextTick(_)`,
// `Effect.yieldNow`), the way that library's users defer work; `TASKBENCH_JS_TASKS=inline`
// runs the earlier code instead, every task settled within its spawner, so that the two
// can be measured side by side. Tasks that already waited (a chain's links, a callback
// delivered on the next tick, a join) are the same in both forms.

const VARIABLE = "TASKBENCH_JS_TASKS";
const FORMS = ["scheduled", "inline"];
const EXIT_USAGE = 2;

const form = process.env[VARIABLE] || "scheduled";
if (!FORMS.includes(form)) {
  console.error(`${VARIABLE} must be ${FORMS.join(" or ")}, got '${form}'`);
  process.exit(EXIT_USAGE);
}

/** Whether a task with nothing to wait for passes its library's scheduler once (the default). */
export const scheduledTasks = form === "scheduled";
