/** Prompts for the review loop: the quarterly review and drafting the policy for a gap. */
import { ErrorCode, McpError, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';

export const PROMPTS: Prompt[] = [
  {
    name: 'quarterly_review',
    title: 'Run my quarterly review',
    description: 'Plan and price the quarterly compliance review of a repository, then walk through its gaps.',
    arguments: [{ name: 'directory', description: 'the repository root holding compliance.yml', required: true }],
  },
  {
    name: 'draft_policy_for_gap',
    title: 'Draft the policy for this gap',
    description: 'Draft a policy that closes one control gap of a framework, then check the draft covers it.',
    arguments: [
      { name: 'framework', description: 'the framework slug (e.g. hipaa-security)', required: true },
      { name: 'control', description: 'the control id of the gap (e.g. 164.308(a)(5)(i))', required: true },
      { name: 'organisation', description: 'the organisation the policy is for (optional)', required: false },
    ],
  },
];

function required(args: Record<string, string> | undefined, name: string): string {
  const value = args?.[name]?.trim();
  if (!value) throw new McpError(ErrorCode.InvalidParams, `argument ${name} is required`);
  return value;
}

export function getPrompt(name: string, args: Record<string, string> | undefined): GetPromptResult {
  if (name === 'quarterly_review') {
    const directory = required(args, 'directory');
    return {
      description: 'The quarterly compliance review',
      messages: [{
        role: 'user',
        content: {
          type: 'text',
          text: [
            `Run my quarterly compliance review of the repository at ${directory}.`,
            `1. Call planReview with directory "${directory}" and tell me what the review would sync and map, and what it would cost (it spends nothing).`,
            '2. Ask me before anything is charged. The server refuses calls over its token budget: if it refuses, tell me the budget and do not retry.',
            '3. For each framework, read its controls (getFramework) and, when I agree, map the policies from the library by their ids (mapDocument with documentId) and list the gaps with their recommendations (detail full; getMappingReport for the rest).',
            '4. Offer to draft a policy for each gap (the draft_policy_for_gap prompt).',
          ].join('\n'),
        },
      }],
    };
  }
  if (name === 'draft_policy_for_gap') {
    const framework = required(args, 'framework');
    const control = required(args, 'control');
    const organisation = args?.organisation?.trim();
    return {
      description: `Draft the policy for ${framework} ${control}`,
      messages: [{
        role: 'user',
        content: {
          type: 'text',
          text: [
            `Draft the policy that closes the gap for control ${control} of ${framework}${organisation ? ` for ${organisation}` : ''}.`,
            `1. Read what ${control} requires (getFramework ${framework}), and searchLibrary for policies that already touch it.`,
            `2. Generate a draft with generateDocument (framework "${framework}", the type from getCapabilities that fits the control${organisation ? `, organisation {"name": "${organisation}"}` : ''}), or write it from the existing policies.`,
            `3. Check the draft with mapDocument against ${framework} and tell me whether ${control} is now covered.`,
            'Tell me what each charged step costs before calling it.',
          ].join('\n'),
        },
      }],
    };
  }
  throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${JSON.stringify(name)}: use ${PROMPTS.map((prompt) => prompt.name).join(' or ')}`);
}
