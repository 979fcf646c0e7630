/**
 * Compiling a request into a plan, across actors: the schema builder analyses it for the
 * role (validation, IR), then each field's statements are written by the compiler pool of
 * its source's backend, concurrently.
 */
import type { PublishedSnapshot } from '../../protocol/snapshot.js';
import type { AnalyzeRequest, CompileAnswer } from '../../protocol/messages.js';
import type { PlanStep } from '../../protocol/plan.js';
import type { SchemaBuilder } from '../schema-builder/pool.js';
import type { CompilerPools } from './pool.js';

export class PlanCompiler {
  constructor(
    private readonly builder: SchemaBuilder,
    private readonly compilers: CompilerPools,
  ) {}

  async compile(snapshot: PublishedSnapshot, req: AnalyzeRequest): Promise<CompileAnswer> {
    const analysis = await this.builder.analyze(snapshot, req);
    if (!analysis.ok) return analysis;
    const sessionVariables = new Set<string>();
    let wholeSession = false;
    const live = analysis.plan.operation === 'subscription';
    const steps = await Promise.all(
      analysis.plan.steps.map(async ({ run, ...step }): Promise<PlanStep> => {
        if (run.kind !== 'translate') return { ...step, run };
        const translated = await this.compilers.translate({ sourceKind: run.sourceKind, prepared: run.prepared, source: run.source, field: run.field, live });
        for (const name of translated.sessionVariables) sessionVariables.add(name);
        wholeSession ||= translated.wholeSession;
        return { ...step, run: translated.run };
      }),
    );
    return { ok: true, plan: { ...analysis.plan, steps, sessionVariables: [...sessionVariables].sort(), ...(wholeSession ? { wholeSession: true as const } : {}) } };
  }

  async close(): Promise<void> {
    await Promise.all([this.builder.close(), this.compilers.close()]);
  }
}
