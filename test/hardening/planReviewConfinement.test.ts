/**
 * planReview reads only inside the repository root it is given, and there only a YAML configuration
 * and the files that configuration names (issue 37.9). Replayed through `compliance mcp` over stdio
 * (the MCP SDK's own client, the built CLI, a sandbox): a process's /proc status named as the
 * configuration is not read, nor shown; nor any other file that is not a YAML configuration, nor
 * one outside the root.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { liveSandbox, removeRepo, tempRepo } from '../cli/helpers.js';
import { connectionEnv, stdioClient, textOf } from '../mcp/helpers.js';
import { copyOfBuiltCli, type BuiltCli } from '../sandbox/builtCli.js';

let built: BuiltCli;
let box: RunningSandbox;
let client: Client;
let repo: string;
let outside: string;

beforeAll(async () => {
  built = copyOfBuiltCli();
  box = await liveSandbox();
  repo = tempRepo();
  outside = tempRepo();
  writeFileSync(join(outside, 'secret.yml'), 'apiToken: not-for-the-assistant\n');
  writeFileSync(join(repo, 'deploy.yml'), 'databasePassword: hunter2\nreplicas: 3\n');
  mkdirSync(join(repo, 'linked'));
  symlinkSync(join(outside, 'secret.yml'), join(repo, 'linked', 'secret.yml'));
  ({ client } = await stdioClient(built.cli, [], connectionEnv(box)));
}, 120_000);

afterAll(async () => {
  await client?.close();
  await box?.close();
  built?.remove();
  removeRepo(repo);
  removeRepo(outside);
});

const planReview = async (args: Record<string, unknown>) => (await client.callTool({ name: 'planReview', arguments: args })) as CallToolResult;

describe('planReview, confined', () => {
  it('does not read a process\u2019s /proc status named as the configuration, nor show any of it', async () => {
    const result = await planReview({ directory: '/proc/self', config: 'status' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/not a YAML file.*nothing was read/);
    for (const key of ['Name', 'Umask', 'Pid', 'Uid', 'VmRSS']) expect(textOf(result)).not.toContain(key);
  });

  it('shows none of a YAML file that is no compliance configuration', async () => {
    const result = await planReview({ directory: repo, config: 'deploy.yml' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('is not a compliance configuration');
    expect(textOf(result)).not.toMatch(/databasePassword|hunter2|replicas/);
  });

  it('reads no configuration outside the root, by a path or through a link', async () => {
    for (const config of ['../secret.yml', join(outside, 'secret.yml'), 'linked/secret.yml']) {
      const result = await planReview({ directory: repo, config });
      expect(result.isError, config).toBe(true);
      expect(textOf(result), config).not.toMatch(/apiToken|not-for-the-assistant/);
    }
  });

  it('plans the repository it is given, reading its compliance.yml and the documents it names', async () => {
    const result = await planReview({ directory: repo });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ result: { documents: 3, frameworks: ['hipaa-security'] } });
  });
});
