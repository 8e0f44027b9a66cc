import { relative } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { SettingError } from '../config/setting-error.js';
import { ALGORITHM_LANGUAGES, scaffold, type AlgorithmLanguage, type ScaffoldResult } from './scaffold/scaffold.js';

export const INIT_HELP = `Usage: scenarist init <dir> [--from-data FILE ...] [--language typescript|python]

Writes a runnable domain project into <dir> (new or empty): package.json, tsconfig.json, domain.ts,
schemas.ts, one algorithm, one KPI, a unit test, the sample data and a README. With --language python
there is no TypeScript: the domain is the manifest scenarist.domain.json (schemas, the algorithm and its
parameters, its result's JSON Schema, the KPI it returns, views), the algorithm a Python program and its
test a Python unittest.

  --from-data FILE ...   <group>.csv|json|xlsx files: each becomes a schema group, its column types,
                         nullability and a primary-key candidate inferred from the data (repeatable);
                         without it, a small sample table is used
  --language LANG        the first algorithm's language: typescript (default) or python (a program
                         reading JSON on stdin, run as an external algorithm; needs python3)

Then: cd <dir> && npm install && npm start (--port N to choose the port; it prints the dashboard's address)`;

export interface InitArgs {
  readonly dir: string | undefined;
  readonly dataFiles: readonly string[];
  readonly language: AlgorithmLanguage;
  readonly help: boolean;
}

/** The flags of `init`, for node:util `parseArgs`. */
const INIT_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  'from-data': { type: 'string', multiple: true },
  language: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** `init <dir> [--from-data a.csv b.json] [--from-data c.xlsx]`: every word after --from-data is a file. */
export function parseInitArgs(argv: readonly string[]): InitArgs {
  const { tokens } = parseArgs({ args: [...argv], options: INIT_OPTIONS, strict: false, allowPositionals: true, tokens: true });
  let dir: string | undefined;
  const dataFiles: string[] = [];
  let help = false;
  let language: AlgorithmLanguage = 'typescript';
  let inFromData = false;
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      if (inFromData) dataFiles.push(token.value);
      else if (dir === undefined) dir = token.value;
      else throw new SettingError(token.value, 'unexpected argument: give one project directory (data files follow --from-data)');
    } else if (token.name === 'help') help = true;
    else if (token.name === 'language') {
      inFromData = false;
      language = parseLanguage(token.value);
    }
    else if (token.name === 'from-data') {
      inFromData = true;
      // parseArgs takes the next word, even a flag, as the value: a flag there means no file was given.
      if (token.value !== undefined && !(token.inlineValue === false && token.value.startsWith('-'))) dataFiles.push(token.value);
      else if (token.value !== undefined) throw new SettingError('--from-data', 'needs at least one file');
    } else throw new SettingError(token.rawName, 'unknown flag (see scenarist init --help)');
  }
  if (inFromData && dataFiles.length === 0) throw new SettingError('--from-data', 'needs at least one file');
  return { dir, dataFiles, language, help };
}

function parseLanguage(value: string | undefined): AlgorithmLanguage {
  const known = ALGORITHM_LANGUAGES as readonly (string | undefined)[];
  if (!known.includes(value)) throw new SettingError('--language', `expected one of ${ALGORITHM_LANGUAGES.join(', ')}, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`);
  return value as AlgorithmLanguage;
}

/** `scenarist init`: scaffolds the project and tells what it inferred and what to run next. */
export async function init(argv: readonly string[]): Promise<number> {
  const args = parseInitArgs(argv);
  if (args.help) {
    console.log(INIT_HELP);
    return 0;
  }
  if (args.dir === undefined) {
    console.error(`scenarist init: which directory?\n\n${INIT_HELP}`);
    return 1;
  }
  const result = await scaffold({ dir: args.dir, dataFiles: args.dataFiles, language: args.language });
  console.log(summary(result, args.language));
  return 0;
}

function summary(result: ScaffoldResult, language: AlgorithmLanguage): string {
  const shown = relative(process.cwd(), result.dir) || '.';
  const tables = result.groups.flatMap((group) => group.tables.map((table) => {
    const columns = table.columns.map((c) => `${c.name}: ${c.type}${c.nullable ? '?' : ''}${c.primaryKey ? ' (key)' : ''}`);
    return `  ${table.name} (${group.file}, ${table.rows} rows): ${columns.join(', ')}`;
  }));
  const notes = result.notes.length > 0 ? `\nNotes:\n${result.notes.map((note) => `  ${note}`).join('\n')}\n` : '';
  const python = language === 'python';
  return `Created ${shown}: ${result.files.length} files. Inferred schema (${python ? 'scenarist.domain.json' : 'schemas.ts'}; ? = nullable):
${tables.join('\n')}
${notes}
Next:
  cd ${shown}
  npm install
  npm start          # prints the dashboard's address; npm start -- --port 8060 for another port
  ${python ? 'npm run dev        # reloads on every change; npm test runs the Python unittest' : 'npm run dev        # type-checked, reloads on change; npm test'}`;
}
