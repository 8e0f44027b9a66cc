import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { etlErrorLines } from '../../datasets/etl-error-lines.js';
import { runEtl } from '../../datasets/etl/pipeline.js';
import { DEFAULT_SAMPLE } from './default-sample.js';
import { planDomain, type DomainPlan } from './domain-plan.js';
import { inferSchemas, toSchemas, type DataFile, type InferredGroup } from './infer-schema.js';
import { scenaristPackage } from './package-root.js';
import { algorithmModule, domainModule, kpiModule, schemasModule, unitTestModule, viewsModule } from './templates-domain.js';
import { gateExample, gateScript } from './templates-ci.js';
import { GITIGNORE, NPMRC, packageJson, projectReadme, pythonPackageJson, pythonProjectReadme, tsconfigJson } from './templates-project.js';
import { domainManifest, MANIFEST_PATH, PYTHON_PROGRAM_PATH, PYTHON_TEST_PATH, pythonProgram, pythonUnitTest } from './templates-python.js';

export interface ScaffoldRequest {
  /** The project directory: created, or empty. */
  readonly dir: string;
  /** Paths of `<group>.csv|json|xlsx` files to infer the schema from; none: a small built-in sample. */
  readonly dataFiles: readonly string[];
  /** The language of the first algorithm (default TypeScript; Python: an external algorithm's program). */
  readonly language?: AlgorithmLanguage;
}

export const ALGORITHM_LANGUAGES = ['typescript', 'python'] as const;
export type AlgorithmLanguage = (typeof ALGORITHM_LANGUAGES)[number];

export interface ScaffoldResult {
  readonly dir: string;
  /** Paths written, relative to `dir`. */
  readonly files: readonly string[];
  readonly groups: readonly InferredGroup[];
  readonly plan: DomainPlan;
  readonly notes: readonly string[];
}

/**
 * Writes a runnable domain project. Everything is inferred and checked before the first file is written,
 * so a bad data file leaves no half-made project behind: the inferred schema must pass the ETL on the
 * very files it came from.
 */
export async function scaffold(request: ScaffoldRequest): Promise<ScaffoldResult> {
  const dir = resolve(request.dir);
  refuseNonEmpty(dir);
  const samples = request.dataFiles.length > 0 ? await readDataFiles(request.dataFiles) : [{ name: DEFAULT_SAMPLE.name, data: Buffer.from(DEFAULT_SAMPLE.text) }];
  const { groups, notes } = await inferSchemas(samples);
  const outcome = await runEtl(toSchemas(groups), samples.map(({ name, data }) => ({ filename: name, data })));
  if (!outcome.success) {
    const problems = etlErrorLines(outcome.messages).map((line) => `  ${line}`);
    throw new Error(`the inferred schema does not accept the data files:\n${problems.join('\n')}`);
  }
  const plan = planDomain(groups, outcome.tables);
  const name = projectName(dir);
  const sampleNames = samples.map((sample) => sample.name);
  const files: [string, string | Buffer][] = [
    ...(request.language === 'python' ? pythonFiles(name, groups, plan, sampleNames) : typescriptFiles(name, groups, plan, sampleNames)),
    ...samples.map((sample): [string, Buffer] => [`sample/${sample.name}`, sample.data]),
  ];
  for (const [path, content] of files) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content, { flag: 'wx' });
  }
  return { dir, files: files.map(([path]) => path), groups, plan, notes };
}

/** The TypeScript project: package.json with its tools, domain.ts and the modules it imports, a node:test test. */
function typescriptFiles(name: string, groups: readonly InferredGroup[], plan: DomainPlan, sampleNames: readonly string[]): [string, string][] {
  const pkg = scenaristPackage();
  return [
    ['package.json', packageJson(name, pkg.root, {
      typescript: pkg.devDependencies.typescript ?? '~5.9',
      tsx: pkg.dependencies.tsx ?? '^4.20.0',
      typesNode: pkg.devDependencies['@types/node'] ?? '^20.19.0',
    })],
    ['tsconfig.json', tsconfigJson()],
    ['.gitignore', GITIGNORE],
    ['.npmrc', NPMRC],
    ['README.md', projectReadme(name, sampleNames, plan.table)],
    ['domain.ts', domainModule(name, sampleNames)],
    ['schemas.ts', schemasModule(groups)],
    ['algorithms/top-rows.ts', algorithmModule(plan)],
    ['test/top-rows.test.ts', unitTestModule(plan, sampleNames)],
    ['kpis/picked-total.ts', kpiModule(plan)],
    ['views/picked.ts', viewsModule(plan)],
    ['ci/gate.json', gateExample()],
    ['ci/gate.sh', gateScript()],
  ];
}

/** The Python project: no TypeScript; the domain manifest, the program and its unittest. */
function pythonFiles(name: string, groups: readonly InferredGroup[], plan: DomainPlan, sampleNames: readonly string[]): [string, string][] {
  return [
    ['package.json', pythonPackageJson(name, scenaristPackage().root)],
    ['.gitignore', `${GITIGNORE}__pycache__/\n`],
    ['.npmrc', NPMRC],
    ['README.md', pythonProjectReadme(name, sampleNames, plan.table, PYTHON_PROGRAM_PATH)],
    [MANIFEST_PATH, domainManifest(name, toSchemas(groups), plan, sampleNames)],
    [PYTHON_PROGRAM_PATH, pythonProgram(plan)],
    [PYTHON_TEST_PATH, pythonUnitTest(plan)],
  ];
}

function refuseNonEmpty(dir: string): void {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) throw new Error(`${dir} is a file; scaffold into a new or empty directory`);
  if (readdirSync(dir).length > 0) throw new Error(`${dir} is not empty; scaffold into a new or empty directory`);
}

async function readDataFiles(paths: readonly string[]): Promise<DataFile[]> {
  return Promise.all(paths.map(async (path) => {
    try {
      return { name: basename(path), data: await readFile(path) };
    } catch (err) {
      throw new Error(`cannot read data file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
    }
  }));
}

/** A valid npm package name from the directory's name. */
function projectName(dir: string): string {
  const name = basename(dir).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '');
  return name === '' ? 'scenarist-domain' : name;
}
