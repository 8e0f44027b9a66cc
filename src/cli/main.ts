import { resolveSettings } from '../config/resolve.js';
import { SettingError } from '../config/setting-error.js';
import { StoreLockedError } from '../store/sqlite/store-lock.js';
import type { Settings } from '../config/settings.js';
import { settingsFromEnv, settingsFromFile } from '../config/sources.js';
import { flagsHelp, parseFlags, SERVE_FLAGS, type CommandDeclaration } from './flags.js';

const USAGE = `Usage: scenarist <command> [flags]

Commands:
  serve     run the HTTP service and its algorithm workers (one process per SQLite store)
  worker    run algorithm workers against a PostgreSQL store (distributed executor)
  migrate   bring the database schema up to date and exit
  token     create, list or revoke API tokens (authentication)
  audit     verify the audit trail's hash chain
  init      scaffold a domain project (schema inferred from CSV/JSON/XLSX files with --from-data)
  dev       serve a domain, type-checked, reloaded on every change of its files
  gate      run an acceptance gate (baseline vs candidate) and exit by its verdict, for CI

Run "scenarist <command> --help" for the flags of a command.`;

/** `serve` and `dev` (which always type-checks, so its --typecheck changes nothing). */
export const SERVE_COMMAND: CommandDeclaration = {
  settings: SERVE_FLAGS,
  own: [{ flag: 'typecheck', boolean: true, help: 'type-check a TypeScript domain first; its errors stop start-up (exit code 2)' }],
};

const MIGRATE_COMMAND: CommandDeclaration = { settings: SERVE_FLAGS.filter((f) => ['data-dir', 'database-url', 'log-level'].includes(f.flag)) };

/** Settings from every source: defaults < config file < env < flags. */
export function settingsFrom(argvFlags: ReturnType<typeof parseFlags>, env: NodeJS.ProcessEnv): Settings {
  const configPath = argvFlags.config ?? env.SCENARIST_CONFIG;
  const file = configPath ? settingsFromFile(configPath) : {};
  return resolveSettings(file, settingsFromEnv(env), argvFlags.settings);
}

/** Entry point of the `scenarist` bin; resolves to the exit code (serve resolves when it stops). */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve': {
        const flags = parseFlags(rest, SERVE_COMMAND);
        if (flags.help) return printHelp('serve', SERVE_COMMAND);
        const settings = settingsFrom(flags, env);
        if (flags.extra.typecheck === 'true') {
          const { domainTypechecks } = await import('./dev/check-domain.js');
          if (!domainTypechecks(settings.domain)) return 2;
        }
        // Each command loads what it runs, once its flags and settings are known to be good: the server's
        // modules are about a second of start-up that `--help`, `token` or a bad setting need not pay.
        const { serve } = await import('./serve.js');
        return await serve(settings);
      }
      case 'dev': {
        const { dev, DEV_HELP } = await import('./dev.js');
        const flags = parseFlags(rest, SERVE_COMMAND);
        if (flags.help) return printHelp('dev', SERVE_COMMAND, DEV_HELP);
        // The supervisor type-checks itself; the server it starts needs only the settings.
        return await dev(settingsFrom(flags, env), rest.filter((arg) => arg !== '--typecheck'));
      }
      case 'migrate': {
        const flags = parseFlags(rest, MIGRATE_COMMAND);
        if (flags.help) return printHelp('migrate', MIGRATE_COMMAND);
        const settings = settingsFrom(flags, env);
        const { migrate } = await import('./migrate.js');
        return await migrate(settings);
      }
      case 'worker': {
        const { worker, WORKER_COMMAND } = await import('./worker.js');
        const flags = parseFlags(rest, WORKER_COMMAND);
        if (flags.help) return printHelp('worker', WORKER_COMMAND);
        return await worker(settingsFrom(flags, env), flags.extra);
      }
      case 'init': {
        const { init } = await import('./init.js');
        return await init(rest);
      }
      case 'audit': {
        const { auditCommand } = await import('./audit.js');
        return await auditCommand(rest, (flags) => settingsFrom(flags, env));
      }
      case 'gate': {
        const { gateCommand } = await import('./gate.js');
        return await gateCommand(rest, (flags) => settingsFrom(flags, env));
      }
      case 'token': {
        const { tokenCommand } = await import('./token.js');
        return await tokenCommand(rest, (flags) => settingsFrom(flags, env));
      }
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        console.log(USAGE);
        return command === undefined ? 1 : 0;
      default:
        console.error(`scenarist: unknown command "${command}"\n\n${USAGE}`);
        return 1;
    }
  } catch (err) {
    if (err instanceof SettingError || err instanceof StoreLockedError) {
      console.error(`scenarist: ${err.message}`);
      return 2;
    }
    console.error(`scenarist: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

function printHelp(command: string, declaration: CommandDeclaration, extra = ''): number {
  console.log(`Usage: scenarist ${command} [flags]\n\nFlags:\n${flagsHelp(declaration.settings, declaration.own)}${extra ? `\n${extra}` : ''}`);
  return 0;
}
