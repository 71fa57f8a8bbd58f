// web/src/views — the flame graph's weight picker: which weights an event type offers
// (StackQuery.weight), and the default, which is what `dotnet-trace convert` shows for CPU
// samples (TraceEvent's thread time), the time waited for lock contentions (`--weight
// wait-time`: what a contention costs), the estimated allocated bytes for .NET 10's
// AllocationSampled events, and the engine's "auto" for the others (bytes for
// GC/AllocationTick, the Value of Linux-profiler cpu/cswitch events, else a count).
import type { StackQuery } from '../api/handle.js';

export type Weight = NonNullable<StackQuery['weight']>;

const SAMPLE_WEIGHTS: { value: Weight; label: string }[] = [
  { value: 'traceevent-thread-time', label: 'Thread time (dotnet-trace, PerfView)' },
  { value: 'thread-time', label: 'Thread time since the previous sample (pyroscope)' },
  { value: 'managed-thread-time', label: 'Managed-only thread time (pyroscope)' },
  { value: 'count', label: 'Sample count' },
];

// .NET 10's AllocationSampled (TraceEvent's "AllocationSampling"): the runtime's unbiased
// estimate, each stack ending in its allocated type (analysis/runtime/allocation_samples.h).
const ALLOCATION_SAMPLE_WEIGHTS: { value: Weight; label: string }[] = [
  { value: 'alloc-bytes', label: 'Allocated bytes (estimated)' },
  { value: 'alloc-objects', label: 'Allocated objects (estimated)' },
  { value: 'count', label: 'Sample count' },
];

/** The weights offered for the stacks of `event` (a display name: "Thread/Sample", …). */
export function weightChoices(event: string): { value: Weight; label: string }[] {
  if (event === 'Thread/Sample') return SAMPLE_WEIGHTS;
  if (event === 'AllocationSampling') return ALLOCATION_SAMPLE_WEIGHTS;
  if (event === 'GC/AllocationTick') {
    return [
      { value: 'bytes', label: 'Allocated bytes (~100 KB ticks, biased)' },
      { value: 'alloc-bytes', label: 'Allocated bytes by type (~100 KB ticks, biased)' },
      { value: 'count', label: 'Allocation tick count' },
    ];
  }
  if (event === 'Contention/Start') return [{ value: 'wait-time', label: 'Time waited' }, { value: 'count', label: 'Contention count' }];
  return [{ value: 'auto', label: 'Default (count, or the event\'s own value)' }, { value: 'count', label: 'Event count' }];
}

/** The weight used for `event` when the view state names none (or one it does not offer). */
export function effectiveWeight(event: string, picked: string): Weight {
  const choices = weightChoices(event);
  return choices.find((c) => c.value === picked)?.value ?? choices[0]!.value;
}

/** Fills the weight picker for `event` and selects the weight in use. */
export function offerWeights(select: HTMLSelectElement, event: string, picked: string): void {
  const choices = weightChoices(event);
  const options = choices.map((c) => {
    const o = select.ownerDocument.createElement('option');
    o.value = c.value;
    o.textContent = c.label;
    return o;
  });
  select.replaceChildren(...options);
  select.value = effectiveWeight(event, picked);
}
