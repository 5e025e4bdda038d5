/**
 * Codemod (decision 039): every import of another server module goes through that module's public face,
 * `apps/server/src/modules/<m>/index.ts`, as `npm run lint` requires.
 *
 *   npx tsx scripts/codemods/module-imports.ts           rewrite in place, then report what it could not map
 *   npx tsx scripts/codemods/module-imports.ts --check   change nothing; list what it would rewrite
 *   options: --root <repo>  (default: this repository)
 *
 * What it does, file by file (apps/server/src, apps/server/test except the lint fixtures, apps/server/bench):
 * - An import or re-export (`import { a, type B } from '../auth/session.service'`, `export { x } from …`)
 *   that names a file inside another module's folder is rewritten to that module's index (`'../auth'`
 *   from a module, `'./modules/auth'` from src/, `'../../src/modules/auth'` from test/…), when the index
 *   exports every name imported. Imports inside one module stay as they are (a module's own files, and
 *   the tests beside them, use its internals).
 * - Names that part A of decision 039 moved (MOVED_SYMBOLS, MOVED_FILES: e.g. `userOf` from auth's
 *   guard to lib/request-user, the sign-in history to modules/users) are imported from where they live
 *   now, so code written before the move (another branch) is mapped too.
 * - Several imports of one module end up as one declaration (value and `type` names merged).
 * - Idempotent: a second run changes nothing. It works on any file present, whenever it was written.
 *
 * What it reports and leaves alone (exit code 2 when there is any):
 * - a name the target module's index does not export (add it to the index, or import something public);
 * - default, namespace and side-effect imports of a module's internals, `export *` from them, and
 *   dynamic `import()` / `vi.mock()` / `typeof import()` of them;
 * - names that were replaced rather than moved (REPLACED: e.g. `forgetUser` outside auth →
 *   `announceUserChanged`), and imports of the composition root (src/bootstrap.ts) from anything but
 *   the entry points and the test helpers.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Names that moved out of a module file (key: `<old file under modules/, no extension>#<name>`), to a file under apps/server/src. */
const MOVED_SYMBOLS: Record<string, string> = {
  'auth/auth.guard#userOf': 'lib/request-user',
  'account/account-services#siteLink': 'lib/site-link',
  'uploads/image-inspect#sniffImageType': 'lib/image-type',
  'uploads/image-inspect#InspectedMime': 'lib/image-type',
  'face-edit/face-edit.tool#maskHasPaint': 'modules/uploads/mask',
  'account/account-deletion.service#issueUndoDeletionToken': 'modules/auth/undo-deletion',
  'account/account-deletion.service#undoAccountDeletion': 'modules/auth/undo-deletion',
};

/** Module files that moved whole (key: old file under modules/, no extension), to a file under apps/server/src. */
const MOVED_FILES: Record<string, string> = {
  'auth/sign-in-history': 'modules/users/sign-in-history',
  'images/image-urls': 'modules/uploads/image-urls',
  'account/signup-attempt.service': 'modules/auth/signup-attempt.service',
};

/** Names replaced by another API: reported with what to use instead (key as MOVED_SYMBOLS). */
const REPLACED: Record<string, string> = {
  'auth/session-cache#forgetUser':
    "outside modules/auth, announce the change instead: import { announceUserChanged } from lib/user-changes (the session cache listens)",
};

/** Files that may import the composition root (src/bootstrap.ts), relative to apps/server. */
const BOOTSTRAP_IMPORTERS = /^(src\/(api|worker|billing-cli)\.ts|test\/.*)$/;

interface Binding {
  /** The exported name. */
  name: string;
  /** The local name when renamed (`a as b`), else undefined. */
  alias?: string;
  typeOnly: boolean;
}

interface Finding {
  file: string;
  line: number;
  message: string;
}

interface Options {
  root: string;
  write: boolean;
}

const TS_EXT = ['.ts', '.tsx', '.mts', '.cts'];

function parseArgs(argv: string[]): Options {
  let root = path.resolve(import.meta.dirname, '../..');
  let write = true;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--check') write = false;
    else if (argv[i] === '--root' && argv[i + 1]) root = path.resolve(argv[++i]!);
    else throw new Error(`unknown argument ${argv[i]} (usage: module-imports.ts [--check] [--root <repo>])`);
  }
  return { root, write };
}

/** Every .ts file under `dir` (recursively), skipping node_modules, dist and `skip`. */
function walk(dir: string, skip: (p: string) => boolean, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (skip(p) || e.name === 'node_modules' || e.name === 'dist') continue;
    if (e.isDirectory()) walk(p, skip, out);
    else if (TS_EXT.some((x) => e.name.endsWith(x)) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The file a relative specifier names (extension-less, `.js` for `.ts`, or a folder's index), or null. */
function resolveFile(fromFile: string, spec: string): string | null {
  const base = path.resolve(path.dirname(fromFile), spec);
  const stem = base.replace(/\.(m|c)?js$/, '');
  const candidates = [base, ...TS_EXT.map((x) => stem + x), ...TS_EXT.map((x) => path.join(base, `index${x}`))];
  for (const c of candidates) if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  return null;
}

/** A relative specifier from `fromFile` to `target` (a file, extension dropped, or a folder). */
function specifierTo(fromFile: string, target: string): string {
  let rel = path.relative(path.dirname(fromFile), target).split(path.sep).join('/');
  rel = rel.replace(/\.(ts|tsx|mts|cts)$/, '');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

class Codemod {
  readonly serverDir: string;
  readonly srcDir: string;
  readonly modulesDir: string;
  readonly findings: Finding[] = [];
  readonly changed: string[] = [];
  private readonly exportsOf = new Map<string, Set<string> | null>();
  private checker?: ts.TypeChecker;
  private program?: ts.Program;

  constructor(private readonly opts: Options) {
    this.serverDir = path.join(opts.root, 'apps/server');
    this.srcDir = path.join(this.serverDir, 'src');
    this.modulesDir = path.join(this.srcDir, 'modules');
  }

  /** The module folders (each a module, with or without an index yet). */
  modules(): string[] {
    return fs.existsSync(this.modulesDir)
      ? fs.readdirSync(this.modulesDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)
      : [];
  }

  indexOf(moduleName: string): string | null {
    for (const x of TS_EXT) {
      const p = path.join(this.modulesDir, moduleName, `index${x}`);
      if (fs.existsSync(p)) return p;
    }
    return null;
  }

  /** The module a file belongs to (its folder under modules/), or null for files outside the modules. */
  moduleOfFile(file: string): string | null {
    const rel = path.relative(this.modulesDir, file);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
    const first = rel.split(path.sep)[0]!;
    return rel.includes(path.sep) ? first : null;
  }

  /** Names a module's index exports (values and types), read with the type checker; null without an index. */
  exportedNames(moduleName: string): Set<string> | null {
    if (this.exportsOf.has(moduleName)) return this.exportsOf.get(moduleName)!;
    const index = this.indexOf(moduleName);
    let names: Set<string> | null = null;
    if (index) {
      const checker = this.typeChecker();
      const sf = this.program!.getSourceFile(index);
      const sym = sf && checker.getSymbolAtLocation(sf);
      names = new Set(sym ? checker.getExportsOfModule(sym).map((s) => s.getName()) : []);
    }
    this.exportsOf.set(moduleName, names);
    return names;
  }

  private typeChecker(): ts.TypeChecker {
    if (!this.checker) {
      // Every module file: the indexes' exports, and whether a file still exports a moved name.
      const roots = walk(this.modulesDir, () => false).filter((p) => !/\.test\.tsx?$/.test(p));
      this.program = ts.createProgram(roots, {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        allowJs: false,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      });
      this.checker = this.program.getTypeChecker();
    }
    return this.checker;
  }

  report(file: string, sf: ts.SourceFile, node: ts.Node, message: string): void {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    this.findings.push({ file: path.relative(this.opts.root, file), line, message });
  }

  /**
   * The file `spec` names from `file` (following MOVED_FILES when it is gone) and its old key (path under
   * modules/ without extension), or a null key when it is not under modules/.
   */
  private locate(file: string, spec: string): { target: string | null; oldKey: string | null; gone: boolean } {
    const resolved = resolveFile(file, spec);
    const named = resolved ?? path.resolve(path.dirname(file), spec).replace(/\.(m|c)?js$/, '');
    const rel = path.relative(this.modulesDir, named).split(path.sep).join('/').replace(/\.(ts|tsx|mts|cts)$/, '');
    const oldKey = rel.startsWith('..') || path.isAbsolute(rel) ? null : rel;
    if (!resolved && oldKey && MOVED_FILES[oldKey]) return { target: resolveFile(path.join(this.srcDir, 'x.ts'), `./${MOVED_FILES[oldKey]}`), oldKey, gone: true };
    return { target: resolved, oldKey, gone: !resolved };
  }

  /** Whether `target` (a file under modules/) still exports `name` itself or by re-export. */
  private fileExports(target: string, name: string): boolean {
    const checker = this.typeChecker();
    const sf = this.program!.getSourceFile(target);
    const sym = sf && checker.getSymbolAtLocation(sf);
    return Boolean(sym && checker.getExportsOfModule(sym).some((s) => s.getName() === name));
  }

  /**
   * The specifier `binding` should be imported from, given the file it is imported from now (`target`,
   * under modules/); null (with a finding) when it cannot be mapped. `undefined` = leave as is.
   */
  private destinationFor(file: string, sf: ts.SourceFile, node: ts.Node, oldKey: string, target: string, gone: boolean, b: Binding): string | null | undefined {
    const fileKey = path.relative(this.modulesDir, target).split(path.sep).join('/').replace(/\.(ts|tsx|mts|cts)$/, '');
    const importer = this.moduleOfFile(file);
    const oldOwner = oldKey.split('/')[0]!;
    for (const key of [`${oldKey}#${b.name}`, `${fileKey}#${b.name}`]) {
      if (REPLACED[key] && key.split('/')[0] !== importer) {
        this.report(file, sf, node, `${b.name} from modules/${oldKey}: ${REPLACED[key]}`);
        return null;
      }
    }
    let targetFile = target;
    const moved = MOVED_SYMBOLS[`${oldKey}#${b.name}`] ?? MOVED_SYMBOLS[`${fileKey}#${b.name}`];
    // A moved name is followed from another module always, from its old module's own files only when
    // the old file no longer exports it (a re-export left for the module's own files is fine).
    if (moved && (importer !== oldOwner || !this.fileExports(target, b.name))) {
      const f = resolveFile(path.join(this.srcDir, 'x.ts'), `./${moved}`);
      if (!f) {
        this.report(file, sf, node, `${b.name}: moved to src/${moved}, which does not exist`);
        return null;
      }
      targetFile = f;
    }
    const owner = this.moduleOfFile(targetFile);
    if (owner === null) return specifierTo(file, targetFile); // below the modules (lib/…)
    if (owner === importer) return targetFile === target && !gone ? undefined : specifierTo(file, targetFile);
    const index = this.indexOf(owner);
    if (targetFile === index) return gone ? specifierTo(file, path.join(this.modulesDir, owner)) : undefined;
    const names = this.exportedNames(owner);
    if (!names) {
      this.report(file, sf, node, `${b.name} from modules/${fileKey}: modules/${owner} has no index.ts`);
      return null;
    }
    if (!names.has(b.name)) {
      const where = path.relative(this.modulesDir, targetFile).split(path.sep).join('/').replace(/\.(ts|tsx|mts|cts)$/, '');
      this.report(file, sf, node, `${b.name} from modules/${where}: not exported by modules/${owner}/index.ts`);
      return null;
    }
    return specifierTo(file, path.join(this.modulesDir, owner));
  }

  /** Rewrites one file; returns its new text (unchanged when nothing applies). */
  transform(file: string, text: string): string {
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const serverRel = path.relative(this.serverDir, file).split(path.sep).join('/');
    interface Plan {
      node: ts.ImportDeclaration | ts.ExportDeclaration;
      kind: 'import' | 'export';
      /** Bindings per destination specifier, in source order; the original specifier for those left as is. */
      groups: Map<string, Binding[]>;
      clauseTypeOnly: boolean;
      changed: boolean;
    }
    const plans: Plan[] = [];
    const bootstrap = path.join(this.srcDir, 'bootstrap.ts');

    const visitCalls = (node: ts.Node): void => {
      // import('…'), vi.mock('…'), typeof import('…'): reported only.
      let spec: string | undefined;
      if (ts.isCallExpression(node) && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
        const callee = node.expression.getText(sf);
        if (node.expression.kind === ts.SyntaxKind.ImportKeyword || /^(vi|vitest)\.(mock|doMock|importActual|unmock)$/.test(callee)) spec = node.arguments[0].text;
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        spec = node.argument.literal.text;
      }
      if (spec?.startsWith('.')) {
        const { target, oldKey } = this.locate(file, spec);
        const owner = target ? this.moduleOfFile(target) : null;
        if (target && owner && owner !== this.moduleOfFile(file) && target !== this.indexOf(owner)) {
          this.report(file, sf, node, `dynamic or mocked import of modules/${oldKey}: import the module's index (or move the test beside it)`);
        }
      }
      ts.forEachChild(node, visitCalls);
    };

    for (const stmt of sf.statements) {
      if (!(ts.isImportDeclaration(stmt) || ts.isExportDeclaration(stmt))) continue;
      const specNode = stmt.moduleSpecifier;
      if (!specNode || !ts.isStringLiteral(specNode) || !specNode.text.startsWith('.')) continue;
      const spec = specNode.text;
      const { target, oldKey, gone } = this.locate(file, spec);
      if (target === bootstrap && !BOOTSTRAP_IMPORTERS.test(serverRel)) {
        this.report(file, sf, stmt, 'imports the composition root bootstrap.ts: read the secret from ctx.secret; tests use test/helpers/test-app (createContext)');
        continue;
      }
      if (!oldKey) continue;
      if (!target) {
        this.report(file, sf, stmt, `modules/${oldKey} does not exist (moved or renamed?)`);
        continue;
      }
      const importer = this.moduleOfFile(file);
      const owner = this.moduleOfFile(target);
      const deep = owner !== null && owner !== importer && target !== this.indexOf(owner);
      const mayMove = Object.keys({ ...MOVED_SYMBOLS, ...REPLACED }).some((k) => k.startsWith(`${oldKey}#`));
      if (!deep && !gone && !mayMove) continue;

      let bindings: Binding[];
      let clauseTypeOnly = false;
      if (ts.isImportDeclaration(stmt)) {
        const clause = stmt.importClause;
        if (!clause) {
          if (deep) this.report(file, sf, stmt, `side-effect import of modules/${oldKey}: import the module's index`);
          continue;
        }
        clauseTypeOnly = clause.isTypeOnly;
        if (clause.name || (clause.namedBindings && ts.isNamespaceImport(clause.namedBindings))) {
          if (deep) this.report(file, sf, stmt, `default or namespace import of modules/${oldKey}: use named imports from the module's index`);
          continue;
        }
        const named = clause.namedBindings as ts.NamedImports | undefined;
        bindings = (named?.elements ?? []).map((e) => ({
          name: (e.propertyName ?? e.name).text,
          alias: e.propertyName ? e.name.text : undefined,
          typeOnly: clauseTypeOnly || e.isTypeOnly,
        }));
      } else {
        clauseTypeOnly = stmt.isTypeOnly;
        if (!stmt.exportClause || !ts.isNamedExports(stmt.exportClause)) {
          if (deep) this.report(file, sf, stmt, `export * from modules/${oldKey}: re-export named names from the module's index`);
          continue;
        }
        bindings = stmt.exportClause.elements.map((e) => ({
          name: (e.propertyName ?? e.name).text,
          alias: e.propertyName ? e.name.text : undefined,
          typeOnly: clauseTypeOnly || e.isTypeOnly,
        }));
      }
      const groups = new Map<string, Binding[]>();
      let changed = false;
      for (const b of bindings) {
        // undefined: stays where it is; null: cannot be mapped (reported), stays too.
        const dest = this.destinationFor(file, sf, stmt, oldKey, target, gone, b) ?? spec;
        if (dest !== spec) changed = true;
        if (!groups.has(dest)) groups.set(dest, []);
        groups.get(dest)!.push(b);
      }
      if (changed) plans.push({ node: stmt, kind: ts.isImportDeclaration(stmt) ? 'import' : 'export', groups, clauseTypeOnly, changed });
    }
    visitCalls(sf);
    if (plans.length === 0) return text;

    // Existing, untouched named imports of a destination the plans import from: merge into them.
    const existing = new Map<string, { node: ts.ImportDeclaration; bindings: Binding[] }>();
    const plannedNodes = new Set<ts.Node>(plans.map((p) => p.node));
    for (const stmt of sf.statements) {
      if (!ts.isImportDeclaration(stmt) || plannedNodes.has(stmt) || !ts.isStringLiteral(stmt.moduleSpecifier)) continue;
      const c = stmt.importClause;
      if (!c || c.name || !c.namedBindings || !ts.isNamedImports(c.namedBindings)) continue;
      const spec = stmt.moduleSpecifier.text;
      if (existing.has(spec)) continue;
      existing.set(spec, { node: stmt, bindings: c.namedBindings.elements.map((e) => ({ name: (e.propertyName ?? e.name).text, alias: e.propertyName ? e.name.text : undefined, typeOnly: c.isTypeOnly || e.isTypeOnly })) });
    }

    // Collect all import bindings by destination, in source order; exports stay per statement.
    const importsByDest = new Map<string, Binding[]>();
    const firstNodeOf = new Map<string, ts.Node>();
    const add = (dest: string, bs: Binding[], node: ts.Node) => {
      if (!importsByDest.has(dest)) importsByDest.set(dest, []);
      const list = importsByDest.get(dest)!;
      for (const b of bs) {
        const same = list.find((x) => x.name === b.name && x.alias === b.alias);
        if (same) same.typeOnly = same.typeOnly && b.typeOnly;
        else list.push({ ...b });
      }
      const first = firstNodeOf.get(dest);
      if (!first || node.getStart(sf) < first.getStart(sf)) firstNodeOf.set(dest, node);
    };
    const edits: { start: number; end: number; text: string }[] = [];
    const contributions: { node: ts.Node; dest: string; bindings: Binding[] }[] = [];
    for (const p of plans) {
      if (p.kind === 'export') {
        const lines = [...p.groups].map(([dest, bs]) => renderExport(dest, bs));
        edits.push({ start: p.node.getStart(sf), end: p.node.end, text: lines.join('\n') });
        continue;
      }
      for (const [dest, bindings] of p.groups) contributions.push({ node: p.node, dest, bindings });
    }
    const planned = new Set(contributions.map((c) => c.dest));
    for (const [dest, e] of existing) if (planned.has(dest)) contributions.push({ node: e.node, dest, bindings: e.bindings });
    // In source order, so names keep the order they had.
    contributions.sort((a, b) => a.node.getStart(sf) - b.node.getStart(sf));
    for (const c of contributions) add(c.dest, c.bindings, c.node);

    const textOf = new Map<ts.Node, string[]>();
    for (const [dest, bs] of importsByDest) {
      const node = firstNodeOf.get(dest)!;
      if (!textOf.has(node)) textOf.set(node, []);
      textOf.get(node)!.push(renderImport(dest, bs));
    }
    const importNodes = new Set<ts.Node>([...plans.filter((p) => p.kind === 'import').map((p) => p.node), ...[...existing].filter(([d]) => importsByDest.has(d)).map(([, e]) => e.node)]);
    for (const node of importNodes) {
      const lines = textOf.get(node);
      if (lines) edits.push({ start: node.getStart(sf), end: node.end, text: lines.join('\n') });
      else {
        // Merged into an earlier declaration: drop it with its line break.
        let end = node.end;
        if (text[end] === '\r') end++;
        if (text[end] === '\n') end++;
        const start = node.getStart(sf);
        const from = text.slice(lineStart(text, start), start).trim() === '' ? lineStart(text, start) : start;
        edits.push({ start: from, end, text: '' });
      }
    }
    edits.sort((a, b) => b.start - a.start);
    let out = text;
    for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
    return out;
  }

  run(): number {
    const files = [
      ...walk(this.srcDir, () => false),
      ...walk(path.join(this.serverDir, 'test'), (p) => p === path.join(this.serverDir, 'test', 'lint-fixtures')),
      ...walk(path.join(this.serverDir, 'bench'), () => false),
    ];
    for (const file of files) {
      const before = fs.readFileSync(file, 'utf8');
      const after = this.transform(file, before);
      if (after !== before) {
        this.changed.push(path.relative(this.opts.root, file));
        if (this.opts.write) fs.writeFileSync(file, after);
      }
    }
    const verb = this.opts.write ? 'rewrote' : 'would rewrite';
    console.log(`module-imports: ${verb} ${this.changed.length} file(s)${this.changed.length ? `:\n  ${this.changed.join('\n  ')}` : ''}`);
    const unique = [...new Map(this.findings.map((f) => [`${f.file}:${f.line}:${f.message}`, f])).values()];
    if (unique.length) {
      console.log(`\n${unique.length} import(s) left as they are (fix by hand, then run again):`);
      for (const f of unique) console.log(`  ${f.file}:${f.line}  ${f.message}`);
      return 2;
    }
    if (!this.opts.write && this.changed.length) return 1;
    return 0;
  }
}

function lineStart(text: string, pos: number): number {
  const i = text.lastIndexOf('\n', pos - 1);
  return i + 1;
}

function renderNames(bs: Binding[], clauseTypeOnly: boolean): string {
  return bs.map((b) => `${b.typeOnly && !clauseTypeOnly ? 'type ' : ''}${b.name}${b.alias ? ` as ${b.alias}` : ''}`).join(', ');
}

function renderImport(dest: string, bs: Binding[]): string {
  const allTypes = bs.every((b) => b.typeOnly);
  return `import ${allTypes ? 'type ' : ''}{ ${renderNames(bs, allTypes)} } from '${dest}';`;
}

function renderExport(dest: string, bs: Binding[]): string {
  const allTypes = bs.every((b) => b.typeOnly);
  return `export ${allTypes ? 'type ' : ''}{ ${renderNames(bs, allTypes)} } from '${dest}';`;
}

/** Runs the codemod; exported for the test (module-imports.test.ts). @returns the exit code and what happened. */
export function runModuleImports(opts: Options): { code: number; changed: string[]; findings: Finding[] } {
  const c = new Codemod(opts);
  const code = c.run();
  return { code, changed: c.changed, findings: c.findings };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  process.exitCode = runModuleImports(parseArgs(process.argv.slice(2))).code;
}
