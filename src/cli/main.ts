#!/usr/bin/env node
/**
 * `service-graphql`, the command-line tool: a project directory kept in git (metadata as files,
 * migrations, seeds) applied to an engine through its admin API, as the well-known engine's tool
 * does it, with the same commands, flags and `config.yaml` (docs/cli.md). It runs in the user's
 * shell and talks to the engine over HTTP only.
 */
import { Command, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { registerInitCommand } from './commands/init.js';
import { applyMetadata, registerMetadataFileCommands } from './commands/metadata-files.js';
import { registerMetadataServerCommands } from './commands/metadata-server.js';
import { registerMigrateCommands } from './commands/migrate.js';
import { registerSeedCommands } from './commands/seed.js';
import { registerDeployCommand } from './commands/deploy.js';
import { registerConsoleCommand } from './commands/console.js';
import { EXIT } from './errors.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const program = new Command('service-graphql')
  .description('Manage a GraphQL engine project: metadata as files, migrations, seeds, deploys')
  // `-V` only: `--version` is the well-known tool's flag of `migrate apply` and `migrate delete`, and commander reads the program's options after a subcommand too.
  .version(VERSION, '-V', 'print the version')
  .option('--endpoint <url>', 'the engine (env SERVICE_GRAPHQL_ENDPOINT, config.yaml endpoint; default http://localhost:8080)')
  .option('--admin-secret <secret>', 'the admin secret (env SERVICE_GRAPHQL_ADMIN_SECRET, config.yaml admin_secret)')
  .option('--project <dir>', 'the project directory (default: the working directory)')
  .option('--envfile <file>', '.env file read into the environment (default: .env in the project)')
  .option('--database-name <name>', "the source migrations and seeds go to (default: 'default')")
  .addOption(new Option('--output <format>', 'what commands print on stdout').choices(['human', 'json', 'yaml']).default('human'))
  .option('--no-color', 'no colours, even on a terminal')
  .option('--skip-update-check', 'accepted for compatibility: this tool never checks for updates')
  .showHelpAfterError()
  .exitOverride((e) => process.exit(e.exitCode === 0 ? EXIT.ok : EXIT.usage));

const metadata = program.command('metadata').alias('md').description('the metadata: as files in the project, and on the engine');
registerMetadataServerCommands(metadata);
registerMetadataFileCommands(metadata);
registerInitCommand(program);
registerMigrateCommands(program);
registerSeedCommands(program);
registerDeployCommand(program, applyMetadata);
registerConsoleCommand(program);

await program.parseAsync(process.argv);
