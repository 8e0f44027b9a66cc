import type { ChildProcess } from 'node:child_process';
import { relative } from 'node:path';
import { SpareServer, stopChild, waitReady, exited } from './server-child.js';
import type { DomainTypechecker } from './typecheck.js';
import { watchDomainDir, type DomainWatcher } from './watch.js';

export interface SupervisorOptions {
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
 * files change. A change must type-check and load (in the next server, before it opens the store) before
 * the running server is stopped, so a mistake never takes the service down: the last good version keeps
 * serving. The data stays in the store, which the new server opens again.
 */
export class DevSupervisor {
  private server: ChildProcess | undefined;
  /** The next server, started ahead and waiting (see `SpareServer`). */
  private spare: SpareServer | undefined;
  private watcher: DomainWatcher | undefined;
  private reloading: Promise<void> | undefined;
  private pending: string[] | undefined;
  private stopping = false;

  constructor(private readonly options: SupervisorOptions) {}

  /** Resolves with the exit code: 2 when the domain does not type-check or start at first, else 0 on SIGINT/SIGTERM. */
  async run(): Promise<number> {
    if (!this.typechecks()) return 2;
    const spare = this.takeSpare();
    if (!(await spare.load())) return 2;
    const first = await this.startServer(spare);
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
    // The next server loads the changed domain on another core while this process type-checks it.
    const next = this.takeSpare();
    const loading = next.load();
    if (!this.typechecks()) {
      await next.discard();
      this.prepareSpare();
      say(this.server ? 'still serving the last version that type-checked' : 'not serving until the errors are fixed');
      return;
    }
    const checked = Date.now();
    if (!(await loading)) {
      this.prepareSpare();
      say(this.server ? 'the changed domain does not load (see above); still serving the previous version' : 'the domain does not load (see above); not serving');
      return;
    }
    if (this.stopping) return void (await next.discard());
    const loaded = Date.now();
    if (this.server) await this.retire(this.server);
    if (this.stopping) return void (await next.discard());
    const stopped = Date.now();
    if (await this.startServer(next)) {
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

  /** The spare started ahead, or a new one if there is none (or it died). */
  private takeSpare(): SpareServer {
    const waiting = this.spare;
    this.spare = undefined;
    return waiting?.alive ? waiting : new SpareServer(this.options.serveArgs);
  }

  /** Starts the spare for the next reload (at low priority: it must not slow the server that starts beside it). */
  private prepareSpare(): void {
    if (!this.stopping && !this.spare) this.spare = new SpareServer(this.options.serveArgs);
  }

  /** Starts a server that has loaded its domain and waits until it answers; undefined (and said why) when it does not. */
  private async startServer(next: SpareServer): Promise<ChildProcess | undefined> {
    const child = next.child;
    next.serve();
    this.server = child;
    this.prepareSpare();
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
    // A spare that was never told to serve ends with its IPC channel.
    await this.spare?.discard();
  }
}
