import { AuditService } from '../audit/audit-service.js';
import { describeFault } from '../audit/verify-chain.js';
import { SettingError } from '../config/setting-error.js';
import type { Settings } from '../config/settings.js';
import { openStore } from '../store/store.js';
import { flagsHelp, parseFlags, SERVE_FLAGS, type CommandDeclaration, type ParsedFlags } from './flags.js';

export const AUDIT_COMMAND: CommandDeclaration = {
  settings: SERVE_FLAGS.filter((f) => ['data-dir', 'database-url', 'log-level'].includes(f.flag)),
  positionals: true,
};

const USAGE = `Usage: scenarist audit verify [flags]

  audit verify   walks the audit trail's hash chain from its anchor to its head; names the first
                 entry that was changed, inserted or removed and exits 1 then, else exits 0

Flags:
${flagsHelp(AUDIT_COMMAND.settings, AUDIT_COMMAND.own)}`;

/** `scenarist audit verify`: checks the audit trail straight in the store (beside a running server or not). */
export async function auditCommand(argv: readonly string[], settingsOf: (flags: ParsedFlags) => Settings): Promise<number> {
  const [action, ...rest] = argv;
  const flags = parseFlags(rest, AUDIT_COMMAND);
  if (flags.help || action === 'help' || action === '--help' || action === '-h') {
    console.log(USAGE);
    return 0;
  }
  if (action !== 'verify') {
    console.error(`scenarist: ${action === undefined ? 'audit needs an action' : `unknown audit action "${action}"`}\n\n${USAGE}`);
    return 1;
  }
  if (flags.positionals.length > 0) throw new SettingError(flags.positionals[0]!, 'audit verify takes no argument');
  const settings = settingsOf(flags);
  // Read only: no migration, no lock; a server may keep writing (entries after the head read are not checked).
  const store = await openStore(settings.databaseUrl, { migrate: false, maxConnections: 1 });
  try {
    const report = await new AuditService(store.audit, settings.auditRetentionMs).verify();
    const pruned = report.anchorSeq > 0 ? `; entries up to ${report.anchorSeq} were pruned` : '';
    if (report.fault !== undefined) {
      console.error(`scenarist: audit chain broken at entry ${report.fault.seq}: ${describeFault(report.fault)}`);
      return 1;
    }
    console.log(`audit chain intact: ${report.entries} entries, ${report.anchorSeq + 1} to ${report.headSeq}${pruned}`);
    return 0;
  } finally {
    await store.close();
  }
}
