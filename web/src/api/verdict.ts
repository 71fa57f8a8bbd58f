// web/src/api — verdicts for CI, through the same engine as `nettrace check` and `nettrace diff
// --baseline … --compare …` (core/verdict, wasm/verdict_bindings.cc): a budget file checked
// against traces, and many runs a side compared with Welch's t-test and Holm's correction.
//
// Traces are read one at a time in this thread with the engine's shared instance (no
// `wasmBinary` / `wasmUrl`: every trace must land in the one instance that holds the measures),
// measured and closed, so that ten runs a side never sit in the heap together. A trace that
// cannot be read to its end rejects with its NetTraceError: a verdict on part of a run would
// mislead (the CLIs exit with status 2 then).
import type { RawStatus, RawTraceSession } from '../nettrace_wasm.mjs';
import type { TraceSource } from '../reader/chunk_source.js';
import { loadNetTraceModule } from '../reader/wasm_loader.js';
import type { CheckResult, RunDiffResult } from './generated/results.js';
import type { OpenTraceOptions, StackQuery } from './handle.js';
import { inThreadEngine, openTraceInThread } from './trace.js';
import { NetTraceError } from './types.js';

export type CheckFormat = 'text' | 'json' | 'junit' | 'markdown';

export interface CheckOptions extends Pick<OpenTraceOptions, 'chunkSize' | 'signal'> {
  /** Baseline traces, one run each: what the relative budgets (maxIncrease, maxIncreasePercent) compare with. */
  baseline?: TraceSource[];
  /** The checked traces' names in the report; default the path of a string source, else "trace N". */
  names?: string[];
  /** The baseline traces' names; default as `names`. */
  baselineNames?: string[];
  /** Names the budget file in its errors ("budgets.json:3:7: …"); default "budgets". */
  budgetName?: string;
  /** Other forms of the same verdicts, in CheckOutcome.also (e.g. JUnit for a file, Markdown for a job summary). */
  alsoFormats?: CheckFormat[];
  /** The JUnit report's timestamp ("YYYY-MM-DDTHH:MM:SS", UTC); default now. */
  timestamp?: string;
}

export interface CheckOutcome {
  /** Every verdict passed: `nettrace check` exits 0, else 1. */
  passed: boolean;
  /** The report in the format asked for, exactly as `nettrace check --format …` prints it. */
  text: string;
  /** The forms CheckOptions.alsoFormats asked for. */
  also: Partial<Record<CheckFormat, string>>;
}

export interface RunDiffOptions extends Pick<OpenTraceOptions, 'chunkSize' | 'signal'> {
  /** The stack selection of every run (event, weight, thread, range, grouping). */
  query?: StackQuery;
  /** Family-wise error rate of each family of Holm-corrected tests; default 0.05. */
  alpha?: number;
  /** Shares whose mean over all traces is below this fraction are not tested; default 0.001. */
  minShare?: number;
  /** How many functions the document keeps, flagged ones first; default all. */
  maxFunctions?: number;
  baselineNames?: string[];
  comparisonNames?: string[];
}

function fail(status: RawStatus): never {
  throw new NetTraceError(status.code, null, status.message);
}

const nameOf = (source: TraceSource, i: number, names?: string[]): string =>
  names?.[i] ?? (typeof source === 'string' ? source : `trace ${i + 1}`);

// Opens each source in turn in the shared engine instance and hands its session to `add`.
async function eachTrace(
  sources: TraceSource[],
  options: Pick<OpenTraceOptions, 'chunkSize' | 'signal'>,
  names: string[] | undefined,
  add: (session: RawTraceSession, name: string) => void,
): Promise<void> {
  const M = await loadNetTraceModule();
  const open: OpenTraceOptions = {};
  if (options.chunkSize !== undefined) open.chunkSize = options.chunkSize;
  if (options.signal !== undefined) open.signal = options.signal;
  for (let i = 0; i < sources.length; i++) {
    const name = nameOf(sources[i]!, i, names);
    let handle;
    try {
      handle = await openTraceInThread(sources[i]!, open);
    } catch (e) {
      if (!(e instanceof NetTraceError)) throw e;
      throw new NetTraceError(e.code, e.offset, `${name} cannot be checked: ${e.reason}`, e.partial);
    }
    try {
      const engine = inThreadEngine(handle);
      if (engine === null || engine.M !== M) throw new NetTraceError('invalid-argument', null, 'verdicts read traces in the shared engine instance');
      add(engine.session, name);
    } finally {
      handle.close();
    }
  }
}

/** A budget file (its text, or the object) checked against traces: the report as `nettrace check --format FORMAT` prints it. */
export async function checkBudgetsText(
  budgets: string | object,
  traces: TraceSource[],
  format: CheckFormat = 'text',
  options: CheckOptions = {},
): Promise<CheckOutcome> {
  const M = await loadNetTraceModule();
  const check = new M.BudgetCheck();
  try {
    const loaded = check.load(typeof budgets === 'string' ? budgets : JSON.stringify(budgets), options.budgetName ?? 'budgets');
    if (!loaded.ok) fail(loaded);
    const baseline = options.baseline ?? [];
    await eachTrace(traces, options, options.names, (s, name) => check.add(s, name, false));
    await eachTrace(baseline, options, options.baselineNames, (s, name) => check.add(s, name, true));
    const checked = check.check();
    if (!checked.ok) fail(checked);
    const timestamp = options.timestamp ?? new Date().toISOString().slice(0, 19);
    const also: Partial<Record<CheckFormat, string>> = {};
    for (const f of options.alsoFormats ?? []) also[f] = check.output(f, timestamp);
    return { passed: check.passed(), text: check.output(format, timestamp), also };
  } finally {
    check.delete();
  }
}

/** The verdicts of a budget file, parsed (`nettrace check --format json`). */
export async function checkBudgets(budgets: string | object, traces: TraceSource[], options: CheckOptions = {}): Promise<CheckResult> {
  return JSON.parse((await checkBudgetsText(budgets, traces, 'json', options)).text) as CheckResult;
}

/** Many runs a side compared: the document `nettrace diff --baseline … --compare … --format FORMAT` prints. */
export async function compareRunsText(
  baseline: TraceSource[],
  comparison: TraceSource[],
  format: 'json' | 'markdown' = 'json',
  options: RunDiffOptions = {},
): Promise<string> {
  const M = await loadNetTraceModule();
  const diff = new M.RunDiff();
  try {
    const set = diff.setRequest(JSON.stringify(options.query ?? {}), options.alpha ?? 0.05, options.minShare ?? 0.001, options.maxFunctions ?? -1);
    if (!set.ok) fail(set);
    await eachTrace(baseline, options, options.baselineNames, (s, name) => diff.add(s, name, true));
    await eachTrace(comparison, options, options.comparisonNames, (s, name) => diff.add(s, name, false));
    const out = diff.output(format);
    if (!out.ok) fail(out);
    return out.text;
  } finally {
    diff.delete();
  }
}

/** Many runs a side compared, parsed: functions (flagged first), runtime totals, the merged tree. */
export async function compareRuns(baseline: TraceSource[], comparison: TraceSource[], options: RunDiffOptions = {}): Promise<RunDiffResult> {
  return JSON.parse(await compareRunsText(baseline, comparison, 'json', options)) as RunDiffResult;
}
