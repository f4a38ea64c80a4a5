/**
 * The two services an action test talks to, started once per test file: the sandbox (over
 * loopback) and the fake GitHub. Call at the top of a file or a describe block; the fields are
 * read inside tests, after beforeAll has started them.
 */
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { FakeGitHub } from './fakeGitHub.js';
import { API_KEY, GITHUB_TOKEN, REPOSITORY } from './harness.js';

export interface ActionServices {
  readonly sandbox: RunningSandbox;
  readonly github: FakeGitHub;
  /** api-key, base-url and github-token for the actions, plus `extra`. */
  inputs(extra?: Record<string, string>): Record<string, string>;
}

export function useActionServices(options: { keys?: string[] } = {}): ActionServices {
  let sandbox: RunningSandbox | undefined;
  let github: FakeGitHub | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: options.keys ?? [API_KEY] });
    github = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY }).start();
  });
  afterAll(async () => {
    await github?.close();
    await sandbox?.close();
  });
  const started = <T>(service: T | undefined, name: string): T => {
    if (!service) throw new Error(`${name} is not started: call useActionServices() at the top of the file or a describe block`);
    return service;
  };
  return {
    get sandbox() {
      return started(sandbox, 'the sandbox');
    },
    get github() {
      return started(github, 'the fake GitHub');
    },
    inputs: (extra = {}) => ({ 'api-key': API_KEY, 'base-url': started(sandbox, 'the sandbox').baseUrl, 'github-token': GITHUB_TOKEN, ...extra }),
  };
}
