/**
 * Checks an external algorithm's declaration when the domain loads, so a mistake stops start-up with a
 * message rather than failing its first run: a non-empty argv of strings, a string `cwd`, string
 * variables, and a result type with a schema (the only check its output gets).
 */
export function checkExternal(algorithm: { readonly name: string; readonly external: unknown; readonly result?: unknown }): void {
  const where = `domain: external algorithm "${algorithm.name}"`;
  const { command, cwd, env } = algorithm.external as { command?: unknown; cwd?: unknown; env?: unknown };
  if (!Array.isArray(command) || command.length === 0 || !command.every((arg) => typeof arg === 'string')) {
    throw new Error(`${where} needs a command: a non-empty array of strings (the program and its arguments)`);
  }
  if (command[0] === '') throw new Error(`${where} has an empty program name in its command`);
  if (cwd !== undefined && (typeof cwd !== 'string' || cwd === '')) throw new Error(`${where} has a cwd that is not a non-empty string`);
  if (env !== undefined && (typeof env !== 'object' || env === null || !Object.values(env).every((value) => typeof value === 'string'))) {
    throw new Error(`${where} has an env that is not an object of strings`);
  }
  const result = algorithm.result as { name?: unknown; schema?: unknown } | undefined;
  if (typeof result?.name !== 'string') throw new Error(`${where} declares no result type; give result: defineResultType(name, schema)`);
  if (typeof result.schema !== 'object' || result.schema === null) {
    throw new Error(`${where} returns result type "${result.name}", which has no schema; declare it with defineResultType("${result.name}", schema) so the program's output can be checked`);
  }
}
