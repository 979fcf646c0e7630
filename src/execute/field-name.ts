/** The field a step answers, as query tags and query-log lines name it: its response key (an alias when given). */
import type { PlanStep } from '../protocol/plan.js';

export const fieldName = (step: PlanStep): string => (step.output.kind === 'response' ? step.output.path.at(-1)! : step.output.join.field);
