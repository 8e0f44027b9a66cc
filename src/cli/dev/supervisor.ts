import type { ChildProcess } from 'node:child_process';
import { relative } from 'node:path';
import { probeDomain, spawnSpare, SPARE_GO, stopChild, waitReady, exited } from './server-child.js';
import type { DomainTypechecker } from './typecheck.js';
import { watchDomainDir, type DomainWatcher } from './watch.js';

export interface SupervisorOptions {
  /** The `domain` setting as given (passed on to the probe; the server gets it from `serveArgs`). */
  readonly domain: string;
  readonly domainDir: string;
  /** Absent for a JavaScript domain. */
  readonly checker: DomainTypechecker | undefined;
  /** `serve` and the flags `dev` was given. */
  readonly serveArgs: readonly string[];
  readonly healthUrl: string;
  /** Not watched: the server writes its SQLite file there. */
  readonly dataDir: string;
}

const say = (message: string) => console.error(`scenarist dev: ${message}`);

/**
 * Serves a domain from a child `scenarist serve` process and swaps it for a new one when the domain's
 * files change. A change must type-check and load (in a throw-away process) before the running server is
 * stopped, so a mistake never takes the service down: the last good version keeps serving. The data
 * stays in the store, which the new server opens again.
 */
export class DevSupervisor {
  private server: ChildProcess | undefined;
  /** The next server, started ahead and waiting (see `spawnSpare`). */
  private spare: ChildProcess | undefined;
  private watcher: DomainWatcher | undefined;
  private reloading: Promise<void> | undefined;
  private pending: string[] | undefined;
  private stopping = false;

  constructor(private readonly options: SupervisorOptions) {}

  /** Resolves with the exit code: 2 when the domain does not type-check or start at first, else 0 on SIGINT/SIGTERM. */
  async run(): Promise<number> {
    if (!this.typechecks()) return 2;
    const first = await this.startServer();
    if (first === undefined) return 2;
    this.watcher = watchDomainDir(this.options.domainDir, this.options.dataDir, (files) => this.changed(files));
    await this.watcher.ready;
    say(`serving; watching ${relative(process.cwd(), this.options.domainDir) || '.'} for changes (Ctrl-C stops)`);
    return new Promise<number>((resolve) => {
      const stop = () => void this.shutdown().then(() => resolve(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  }

  private changed(files: string[]): void {
    if (this.stopping) return;
    if (this.reloading) {
      this.pending = [...(this.pending ?? []), ...files];
      return;
    }
    this.reloading = this.reload(files).finally(() => {
      this.reloading = undefined;
      const next = this.pending;
      this.pending = undefined;
      if (next) this.changed(next);
    });
  }

  private async reload(files: readonly string[]): Promise<void> {
    const started = Date.now();
    say(`${files.map((file) => relative(process.cwd(), file)).join(', ')} changed`);
    const probing = probeDomain(this.options.domain);
    if (!this.typechecks()) {
      probing.cancel();
      say(this.server ? 'still serving the last version that type-checked' : 'not serving until the errors are fixed');
      return;
    }
    const checked = Date.now();
    const probe = await probing.outcome;
    if (!probe.ok) {
      console.error(probe.output);
      say(this.server ? 'the changed domain does not load; still serving the previous version' : 'the domain does not load; not serving');
      return;
    }
    if (this.stopping) return;
    const loaded = Date.now();
    if (this.server) await this.retire(this.server);
    if (this.stopping) return;
    const stopped = Date.now();
    if (await this.startServer()) {
      // Where a reload's time goes, so a slow one can be told apart (the domain load runs beside the type-check).
      const phases = `type-check ${checked - started} ms, domain load ${loaded - checked} ms more, server stop ${stopped - loaded} ms, server start ${Date.now() - stopped} ms`;
      say(`reloaded in ${Date.now() - started} ms (${phases})`);
    }
  }

  private typechecks(): boolean {
    const outcome = this.options.checker?.check() ?? { ok: true };
    if (!outcome.ok) console.error(outcome.report);
    return outcome.ok;
  }

  /** Starts a server child and waits until it answers; undefined (and said why) when it does not. */
  private async startServer(): Promise<ChildProcess | undefined> {
    const waiting = this.spare;
    const child = waiting && waiting.exitCode === null && waiting.signalCode === null ? waiting : spawnSpare(this.options.serveArgs);
    child.stdin!.end(SPARE_GO);
    if (!this.stopping) this.spare = spawnSpare(this.options.serveArgs);
    this.server = child;
    let ready = false;
    void exited(child).then((code) => {
      if (this.server !== child || !ready) return;
      this.server = undefined;
      if (!this.stopping) say(`the server exited (code ${code}); fix the domain and save to start it again`);
    });
    ready = await waitReady(child, this.options.healthUrl);
    if (ready) return child;
    await this.retire(child);
    say('the server did not start (see above)');
    return undefined;
  }

  /** Stops a server child on purpose (not reported as a crash). */
  private async retire(child: ChildProcess): Promise<void> {
    if (this.server === child) this.server = undefined;
    await stopChild(child);
  }

  private async shutdown(): Promise<void> {
    this.stopping = true;
    await this.watcher?.close();
    await this.reloading;
    if (this.server) await this.retire(this.server);
    // A spare that was never told to go ends with its stdin.
    this.spare?.stdin?.end();
    if (this.spare) await exited(this.spare);
  }
}
