/** The project files `scenarist init` writes around the domain code: package.json, tsconfig, README. */

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

export function projectReadme(name: string, sampleFiles: readonly string[], table: string, algorithmFile = 'algorithms/top-rows.ts'): string {
  const upload = sampleFiles.map((file) => `-F files=@sample/${file}`).join(' ');
  return `# ${name}

A Scenarist domain: the tables an upload must contain (\`schemas.ts\`), the
algorithms a scenario runs (\`algorithms/\`), the KPIs computed from their results (\`kpis/\`) and
the views the dashboard draws of a result (\`views/\`: a table, also the CSV/XLSX export, and a chart).

\`\`\`sh
npm install
npm start            # serves http://127.0.0.1:8051 (dashboard at /ui/), data kept in ./data
npm run dev          # the same, type-checked, reloaded on every change (the data is kept)
npm test             # the unit test of the algorithm and KPI (node --test)
npm run typecheck
\`\`\`

Other commands (\`token\`, \`migrate\`, \`--help\`) run through this project's installed bin:
\`npm exec --offline -- scenarist <command>\` or \`./node_modules/.bin/scenarist <command>\`. Not plain
\`npx scenarist\`: without the local install it would fetch an unrelated package of that name.

The \`main\` session starts with the sample files (\`sample/\`) as dataset \`sample\`. Upload more:

\`\`\`sh
curl -s -F dataset_name=mine ${upload} localhost:8051/api/v1/sessions/main/etl
curl -s -XPOST localhost:8051/api/v1/sessions/main/scenarios -H 'content-type: application/json' \\
  -d '{"tag":"first","dataset_key":"sample","algo_name":"Top Rows","algo_params":{"count":3}}'
\`\`\`

Next steps: check the inferred column types in \`schemas.ts\`; make \`${algorithmFile}\` (which ranks
the rows of \`${table}\`) do what your domain needs; add algorithms, KPIs and views to \`domain.ts\`.
`;
}
