/** The URL of the CLI module under `root` (a `file:` URL ending in `/`): the bundle when current, else the compiled modules. */
export function cliModule(root: URL | string): string;
