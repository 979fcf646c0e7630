/**
 * What every command is given (`CommandContext`) and how its action runs: the global options
 * resolved into the project and the engine's client, the outcome printed, a `CliError` turned
 * into its message and exit code. Each command group lives in `commands/<group>.ts` and
 * registers itself on the program with `register(program)`.
 */
import type { Command } from 'commander';
import { EngineClient } from './engine-client.js';
import { CliError, EXIT } from './errors.js';
import { Output } from './output.js';
import { resolveProject, type GlobalOptions, type Project } from './project.js';

export interface CommandContext {
  project: Project;
  engine: EngineClient;
  output: Output;
}

/** The action of a command: `args` are its positional arguments, `options` its own flags. */
export function action<A extends unknown[], O>(run: (ctx: CommandContext, options: O, ...args: A) => Promise<void>) {
  return async function (this: Command, ...received: unknown[]): Promise<void> {
    // commander passes the positional arguments, then the command's options, then the command.
    const options = received[received.length - 2] as O;
    const args = received.slice(0, -2) as A;
    const globals = this.optsWithGlobals<GlobalOptions>();
    const output = new Output(globals.output ?? 'human', globals.noColor === true || (globals as { color?: boolean }).color === false);
    try {
      const project = resolveProject(globals);
      await run({ project, engine: new EngineClient(project), output }, options, ...args);
    } catch (e) {
      if (!(e instanceof CliError)) {
        output.error(`unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        process.exitCode = 3;
        return;
      }
      output.error(e.message, e.detail);
      process.exitCode = e.exitCode;
    }
  };
}

export { CliError, EXIT };
