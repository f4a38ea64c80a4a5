/** DESIGN.md's import directions fail `npm run lint`, whatever the depth of the relative import. */
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
// The repository's config without the no-unused-export rule, which reads the whole repository
// (test/api/unusedExports.test.ts covers it): these snippets are judged for their imports only.
const eslint = new ESLint({ cwd: root, overrideConfig: { rules: { 'exports/no-unused-export': 'off' } } });

async function problems(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${source}';\nexport const y = x;\n`, { filePath: resolve(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'layers/import-direction').map((m) => m.message);
}

describe('layers/import-direction', () => {
  it.each([
    ['api/client.ts', '../review/review.js'],
    ['api/normalize/job.ts', '../../review/review.js'],
    ['api/node/transport.ts', '../../cli/main.js'],
    ['api/normalize/job.ts', '../../sandbox/index.js'],
    ['review/review.ts', '../cli/main.js'],
    ['review/node/config.ts', '../../actions/shared/review.js'],
    ['review/review.ts', '../nodes/shared/client.js'],
    ['cli/commands/review.ts', '../../actions/shared/review.js'],
    ['cli/lib/session.ts', '../../nodes/shared/client.js'],
    ['actions/shared/review.ts', '../../cli/main.js'],
    ['actions/shared/runtime/service.ts', '../../../cli/lib/output.js'],
    ['actions/review/index.ts', '../../sandbox/index.js'],
    ['nodes/shared/client.ts', '../../sandbox/index.js'],
    ['nodes/Compliance/v1/actions/router.ts', '../../../../sandbox/index.js'],
    ['nodes/shared/client.ts', '../../cli/main.js'],
    ['nodes/shared/client.ts', '../../actions/shared/review.js'],
    ['sandbox/server/server.ts', '../../review/review.js'],
    ['sandbox/server/server.ts', '../../api/client.js'],
    // The sandbox validates requests with its own OpenAPI document, never the client's validation.
    ['sandbox/server/server.ts', '../../api/validation.js'],
    ['sandbox/server/requestValidation.ts', '../../api/errors.js'],
    ['sandbox/library/library.ts', '../../api/node/index.js'],
    ['sandbox/index.ts', '../cli/main.js'],
  ])('%s may not import %s', async (file, source) => {
    expect(await problems(file, source)).toHaveLength(1);
  });

  it.each([
    ['review/review.ts', '../api/client.js'],
    ['review/node/config.ts', '../../api/operations.js'],
    ['cli/commands/review.ts', '../../review/review.js'],
    ['cli/commands/sandbox.ts', '../../sandbox/index.js'],
    ['actions/shared/review.ts', '../../review/review.js'],
    ['nodes/Compliance/v1/actions/router.ts', '../../../../api/client.js'],
    ['nodes/Compliance/v1/actions/router.ts', '../helpers/x.js'],
    ['sandbox/server/openapi.ts', '../../api/operations.js'],
    ['sandbox/server/openapi.ts', '../../api/schemas/responses.js'],
    ['api/normalize/job.ts', '../operations.js'],
  ])('%s may import %s', async (file, source) => {
    expect(await problems(file, source)).toEqual([]);
  });
});
