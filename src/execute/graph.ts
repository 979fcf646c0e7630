/**
 * Running a plan's steps in dependency order: a step starts as soon as the steps it
 * depends on have finished, so independent steps run concurrently. A step's JSON text is
 * kept as text unless a join reads it (`join.ts`).
 */
import type { PlanStep, StepJoin } from '../protocol/plan.js';
import { attachJoined, joinPlaces, joinTargets, removeHidden, type JoinTargets, type ResponsePath } from './join.js';

/**
 * Runs one step; `joinKeys` is the JSON array of key tuples for a join step, else null, and
 * `places` (a join step's) where each tuple's value goes in the response, for its errors.
 */
export type StepRunner = (step: PlanStep, joinKeys: string | null, places?: () => ResponsePath[][]) => Promise<string>;

/** Every step's JSON text, by step id; a step other steps joined into is serialised again with their values. */
export function runGraph(steps: PlanStep[], run: StepRunner): Promise<string[]> {
  // The common case (independent root fields): nothing to wait for, nothing to parse, and no async layer of its own.
  if (!steps.some((s) => s.output.kind === 'join' || s.dependsOn.length > 0)) return Promise.all(steps.map((s) => run(s, null)));
  return runDependentGraph(steps, run);
}

async function runDependentGraph(steps: PlanStep[], run: StepRunner): Promise<string[]> {
  // Checked before anything starts: a step left running would fail unobserved.
  steps.forEach((step, i) => {
    const parent = step.output.kind === 'join' ? [step.output.join.parent] : [];
    if (step.id !== i || [...step.dependsOn, ...parent].some((d) => d >= i || d < 0)) throw new Error(`plan step ${step.id} is out of order`);
  });
  // Parsed values of the steps a join reads; undefined until parsed.
  const parsed: unknown[] = [];
  const joined: { targets: JoinTargets; join: StepJoin }[] = [];
  const valueOf = (id: number, text: string): unknown => {
    if (parsed[id] === undefined) parsed[id] = JSON.parse(text);
    return parsed[id];
  };
  const results: Promise<string>[] = [];

  const joinStep = async (step: PlanStep, join: StepJoin): Promise<string> => {
    const parent = valueOf(join.parent, await results[join.parent]!);
    const targets = joinTargets(parent, join);
    joined.push({ targets, join });
    const above = steps[join.parent]!.output;
    const places = () => joinPlaces(parent, join, targets, above.kind === 'response' ? above.path : []);
    // No parent row to join: the child does not run.
    const text = targets.tuples.length === 0 ? '[]' : await run(step, JSON.stringify(targets.tuples), places);
    const values = valueOf(step.id, text);
    if (!Array.isArray(values)) throw new Error(`join step ${step.id} did not return a JSON array`);
    attachJoined(targets, join, values);
    return text;
  };

  for (const step of steps) {
    const output = step.output;
    results.push(
      step.dependsOn.length === 0 && output.kind !== 'join'
        ? run(step, null)
        : Promise.all(step.dependsOn.map((d) => results[d]!)).then(() => (output.kind === 'join' ? joinStep(step, output.join) : run(step, null))),
    );
  }
  const texts = await Promise.all(results);
  for (const { targets, join } of joined) removeHidden(targets, join);
  return texts.map((text, id) => (parsed[id] === undefined ? text : JSON.stringify(parsed[id])));
}
