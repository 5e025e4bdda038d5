/**
 * The module-imports codemod (scripts/codemods/module-imports.ts, decision 039) on a small server tree in
 * a temporary folder: deep imports go to the module's index (merged per module, `type` kept), names and
 * files that moved are followed, own-module imports stay, what it cannot map is reported and left as
 * it is, and a second run changes nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runModuleImports } from '../../../scripts/codemods/module-imports';

const TREE: Record<string, string> = {
  'lib/request-user.ts': 'export function userOf(): number {\n  return 1;\n}\n',
  'modules/auth/index.ts': "export { currentUser } from './auth.guard';\nexport type { Session } from './session';\n",
  'modules/auth/auth.guard.ts': 'export function currentUser(): null {\n  return null;\n}\n',
  'modules/auth/session.ts': "export interface Session {\n  id: string;\n}\nexport const hidden = 1;\n",
  'modules/auth/session-cache.ts': 'export function forgetUser(_id: number): void {}\n',
  'modules/auth/login.ts': "import { recordSignInEvent } from './sign-in-history';\nimport { hidden } from './session';\nexport const login = () => recordSignInEvent(hidden);\n",
  'modules/users/index.ts': "export { recordSignInEvent } from './sign-in-history';\n",
  'modules/users/sign-in-history.ts': 'export function recordSignInEvent(n: number): number {\n  return n;\n}\n',
  'modules/credits/index.ts': "export { grant } from './credits.service';\n",
  'modules/credits/credits.service.ts': [
    "import { userOf } from '../auth/auth.guard';",
    "import { forgetUser } from '../auth/session-cache';",
    "import { hidden } from '../auth/session';",
    'export function grant(): number {',
    '  forgetUser(userOf());',
    '  return hidden;',
    '}',
    '',
  ].join('\n'),
  'modules/billing/x.ts': [
    "import { currentUser } from '../auth/auth.guard';",
    "import type { Session } from '../auth/session';",
    "import { grant } from '../credits/credits.service';",
    "import { loadSecret } from '../../bootstrap';",
    'export const x = (s: Session) => [currentUser(), grant(), s, loadSecret()];',
    '',
  ].join('\n'),
  'modules/billing/y.ts': "import { grant as g } from '../credits';\nimport { grant } from '../credits/credits.service';\nexport const y = [g, grant];\n",
  'bootstrap.ts': 'export const loadSecret = () => "s";\n',
  'routes.ts': "import { currentUser } from './modules/auth/auth.guard';\nimport { grant } from './modules/credits/credits.service';\nexport const r = [currentUser, grant];\n",
};

let root: string;
const src = (p: string) => path.join(root, 'apps/server/src', p);
const read = (p: string) => fs.readFileSync(src(p), 'utf8');

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-codemod-'));
  for (const [p, text] of Object.entries(TREE)) {
    fs.mkdirSync(path.dirname(src(p)), { recursive: true });
    fs.writeFileSync(src(p), text);
  }
  const helper = path.join(root, 'apps/server/test/helpers/h.ts');
  fs.mkdirSync(path.dirname(helper), { recursive: true });
  fs.writeFileSync(helper, "import { recordSignInEvent } from '../../src/modules/users/sign-in-history';\nexport const h = recordSignInEvent;\n");
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('scripts/codemods/module-imports.ts', () => {
  it('rewrites deep imports to the indexes, follows moves, reports what it cannot map; a second run changes nothing', () => {
    const first = runModuleImports({ root, write: true });
    expect(read('routes.ts')).toBe("import { currentUser } from './modules/auth';\nimport { grant } from './modules/credits';\nexport const r = [currentUser, grant];\n");
    // One declaration per module, `type` kept; the bootstrap import is reported and left.
    expect(read('modules/billing/x.ts')).toBe(
      [
        "import { currentUser, type Session } from '../auth';",
        "import { grant } from '../credits';",
        "import { loadSecret } from '../../bootstrap';",
        'export const x = (s: Session) => [currentUser(), grant(), s, loadSecret()];',
        '',
      ].join('\n'),
    );
    // Merged into the existing import of the index, aliases kept.
    expect(read('modules/billing/y.ts')).toBe("import { grant as g, grant } from '../credits';\nexport const y = [g, grant];\n");
    // userOf moved to lib; forgetUser was replaced (reported, left); `hidden` is not public (reported, left).
    expect(read('modules/credits/credits.service.ts')).toBe(
      [
        "import { userOf } from '../../lib/request-user';",
        "import { forgetUser } from '../auth/session-cache';",
        "import { hidden } from '../auth/session';",
        'export function grant(): number {',
        '  forgetUser(userOf());',
        '  return hidden;',
        '}',
        '',
      ].join('\n'),
    );
    // A file of auth importing the sign-in history where it used to be: now the users module's index.
    expect(read('modules/auth/login.ts')).toBe("import { recordSignInEvent } from '../users';\nimport { hidden } from './session';\nexport const login = () => recordSignInEvent(hidden);\n");
    expect(fs.readFileSync(path.join(root, 'apps/server/test/helpers/h.ts'), 'utf8')).toBe("import { recordSignInEvent } from '../../src/modules/users';\nexport const h = recordSignInEvent;\n");
    expect(first.code).toBe(2);
    const messages = first.findings.map((f) => `${f.file.split('apps/server/src/')[1]}:${f.line} ${f.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^modules\/credits\/credits\.service\.ts:2 forgetUser from modules\/auth\/session-cache: .*announceUserChanged/),
        expect.stringMatching(/^modules\/credits\/credits\.service\.ts:3 hidden from modules\/auth\/session: not exported by modules\/auth\/index\.ts/),
        expect.stringMatching(/^modules\/billing\/x\.ts:\d imports the composition root bootstrap\.ts/),
      ]),
    );
    expect(messages).toHaveLength(3);

    const second = runModuleImports({ root, write: true });
    expect(second.changed).toEqual([]);
    expect(second.findings.map((f) => f.message)).toEqual(first.findings.map((f) => f.message));
    expect(runModuleImports({ root, write: false }).changed).toEqual([]);
  });
});
