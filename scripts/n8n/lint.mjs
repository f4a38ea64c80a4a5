#!/usr/bin/env node
// `n8n-node lint` (from @n8n/node-cli) over the n8n package: the nodes, the credential, the API
// core they bundle, and package.json, with n8n's own default ESLint config (the repo's
// eslint.config.mjs serves the whole repository, so the check runs in a staging copy).
// Exit code: n8n-node lint's.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '../..');
const stage = mkdtempSync(join(tmpdir(), 'n8n-lint-'));
try {
  for (const entry of ['package.json', 'tsconfig.json', 'nodes', 'credentials', 'api']) {
    cpSync(join(repo, entry), join(stage, entry), { recursive: true });
  }
  // The API core (api/, bundled into the nodes) is copied so imports resolve, but is not held to
  // the node rules: it throws its own typed errors, which the nodes map to NodeApiError and
  // NodeOperationError at their boundary (nodes/shared/errors.ts). api/node/ is not bundled.
  rmSync(join(stage, 'api/node'), { recursive: true, force: true });
  writeFileSync(
    join(stage, 'eslint.config.mjs'),
    "import { config } from '@n8n/node-cli/eslint';\nimport { globalIgnores } from 'eslint/config';\n\nexport default [...config, globalIgnores(['api/**'])];\n",
  );
  symlinkSync(join(repo, 'node_modules'), join(stage, 'node_modules'), 'dir');
  const result = spawnSync(join(repo, 'node_modules/.bin/n8n-node'), ['lint'], { cwd: stage, stdio: 'inherit', env: { ...process.env, CI: 'true' } });
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(stage, { recursive: true, force: true });
}
