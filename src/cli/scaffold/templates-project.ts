/** The project files `scenarist init` writes around the domain code: package.json, tsconfig, README. */

import { ciSection } from './templates-ci.js';

/** Versions of the project's tools, taken from Scenarist's own package.json so both stay in step. */
export interface ToolVersions {
  readonly typescript: string;
  readonly tsx: string;
  readonly typesNode: string;
}

export function packageJson(name: string, scenaristRoot: string, tools: ToolVersions): string {
  const pkg = {
    name,
    version: '0.1.0',
    private: true,
    // Scenarist loads domains as ES modules; without this Node reads the .ts files as CommonJS.
    type: 'module',
    engines: { node: '>=20' },
    scripts: {
      start: 'scenarist serve --domain ./domain.ts',
      dev: 'scenarist dev --domain ./domain.ts',
      test: 'node --import tsx --test test/*.test.ts',
      typecheck: 'tsc --noEmit',
    },
    dependencies: { scenarist: `file:${scenaristRoot}` },
    devDependencies: { '@types/node': tools.typesNode, tsx: tools.tsx, typescript: tools.typescript },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

export function tsconfigJson(): string {
  const config = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2023'],
      types: ['node'],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    },
    include: ['**/*.ts'],
    exclude: ['node_modules', 'data'],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

export const GITIGNORE = 'node_modules/\ndata/\n';

/**
 * npm runs the `prepare` script of a linked (file:) dependency on every install, which for Scenarist is
 * its whole build, in its own checkout. None of the project's tools needs an install script.
 */
export const NPMRC = `# Scenarist is linked from its checkout (a file: dependency): without this line every npm install here
# would also rebuild Scenarist (its "prepare" script). Remove it if you add a dependency that needs
# install scripts. npm start, npm test and npm run still run their scripts.
ignore-scripts=true
`;

/**
 * How to start the server, choose its port and find the dashboard: what `serve` prints when it is
 * ready (src/cli/serve.ts: `scenarist ready: dashboard <address>/ui/, API <address>`).
 */
function runningSection(): string {
  return `\`npm start\` serves the domain on port 8051 and, once it is ready, prints where the dashboard is in its
log line \`scenarist ready: dashboard http://127.0.0.1:8051/api/v1/ui/, API http://127.0.0.1:8051/api/v1\`:
open that dashboard address in a browser. To choose the port, pass it after \`--\` (npm hands it on) or
set it in the environment; the printed addresses follow:

\`\`\`sh
npm start -- --port 8060           # dashboard at http://127.0.0.1:8060/api/v1/ui/
SCENARIST_PORT=8060 npm start      # the same
\`\`\``;
}

/** The upload and first scenario, with curl (the default port). */
function tryItSection(sampleFiles: readonly string[]): string {
  const upload = sampleFiles.map((file) => `-F files=@sample/${file}`).join(' ');
  return `The \`main\` session starts with the sample files (\`sample/\`) as dataset \`sample\`. Upload more:

\`\`\`sh
curl -s -F dataset_name=mine ${upload} localhost:8051/api/v1/sessions/main/etl
curl -s -XPOST localhost:8051/api/v1/sessions/main/scenarios -H 'content-type: application/json' \\
  -d '{"tag":"first","dataset_key":"sample","algo_name":"Top Rows","algo_params":{"count":3}}'
\`\`\``;
}

const OTHER_COMMANDS = `Other commands (\`token\`, \`migrate\`, \`--help\`) run through this project's installed bin:
\`npm exec --offline -- scenarist <command>\` or \`./node_modules/.bin/scenarist <command>\`. Not plain
\`npx scenarist\`: without the local install it would fetch an unrelated package of that name.`;

export function projectReadme(name: string, sampleFiles: readonly string[], table: string): string {
  return `# ${name}

A Scenarist domain: the tables an upload must contain (\`schemas.ts\`), the
algorithms a scenario runs (\`algorithms/\`), the KPIs computed from their results (\`kpis/\`) and
the views the dashboard draws of a result (\`views/\`: a table, also the CSV/XLSX export, and a chart).

\`\`\`sh
npm install
npm start            # serves the domain, data kept in ./data (see below for the port and the dashboard)
npm run dev          # the same, type-checked, reloaded on every change (the data is kept)
npm test             # the unit test of the algorithm and KPI (node --test)
npm run typecheck
\`\`\`

${runningSection()}

${OTHER_COMMANDS}

${tryItSection(sampleFiles)}

${ciSection()}

Next steps: check the inferred column types in \`schemas.ts\`; make \`algorithms/top-rows.ts\` (which ranks
the rows of \`${table}\`) do what your domain needs; add algorithms, KPIs and views to \`domain.ts\`.
`;
}

/** The package.json of a Python project: Scenarist only, to serve the manifest; no TypeScript tools. */
export function pythonPackageJson(name: string, scenaristRoot: string): string {
  const pkg = {
    name,
    version: '0.1.0',
    private: true,
    engines: { node: '>=20' },
    scripts: {
      start: 'scenarist serve --domain ./scenarist.domain.json',
      dev: 'scenarist dev --domain ./scenarist.domain.json',
      test: 'python3 -m unittest discover -s test',
    },
    dependencies: { scenarist: `file:${scenaristRoot}` },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

export function pythonProjectReadme(name: string, sampleFiles: readonly string[], table: string, programFile: string): string {
  return `# ${name}

A Scenarist domain written without TypeScript. \`scenarist.domain.json\` declares it all: the tables an
upload must contain (\`schemas\`), the algorithm a scenario runs (a Python program, \`${programFile}\`, with
its parameters), the shape of its result (\`resultTypes\`, JSON Schema), the KPIs it returns in that
result (under \`kpis\`) and the views the dashboard draws of a result (a table, also the CSV/XLSX export,
and a chart). The manifest form is described in Scenarist's docs/external-algorithms.md.

\`\`\`sh
npm install          # installs Scenarist (Node.js 20 or later) for this project
npm start            # serves the domain, data kept in ./data (see below for the port and the dashboard)
npm run dev          # the same, reloaded on every change of the manifest or the program (the data is kept)
npm test             # the program's unit tests (python3 -m unittest)
\`\`\`

${runningSection()}

To add a parameter, add it to the algorithm's \`parameters\` in \`scenarist.domain.json\` (one of the eight
kinds: integer, float, string, boolean, enum, multi_enum, time, interval) and read it from
\`request["params"]\` in the program. To change what the program returns, change it and its schema in
\`resultTypes\` together: a result that does not match fails its run, naming the first wrong path. A
mistake in the manifest stops the server with one line naming the file and the path in it.

${OTHER_COMMANDS}

${tryItSection(sampleFiles)}

Next steps: check the inferred column types in \`schemas\`; make \`${programFile}\` (which ranks the rows
of \`${table}\`) do what your domain needs; add algorithms, KPIs and views to \`scenarist.domain.json\`.
`;
}
