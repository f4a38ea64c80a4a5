// The package.json of a published artifact (packages/<name>/): its own fields plus the fields every
// artifact shares, written once in the root package.json. An artifact may also carry a shared field
// itself when a checker reads the committed file (n8n's scanner lints
// packages/n8n-nodes-compliance/package.json of the attested commit and wants version, author and
// license there); such a copy must equal the root's, so the two can never drift into a release.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';

export const SHARED_FIELDS = ['version', 'license', 'author', 'repository', 'bugs', 'engines'];

/** The package.json `npm pack` receives for packages/<artifact>/ of the repository at `repo`. */
export function artifactPackageJson(repo, artifact) {
  const root = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  const template = JSON.parse(readFileSync(join(repo, 'packages', artifact, 'package.json'), 'utf8'));
  for (const field of SHARED_FIELDS) {
    if (field in template && !isDeepStrictEqual(template[field], root[field])) {
      throw new Error(
        `packages/${artifact}/package.json: "${field}" is ${JSON.stringify(template[field])} but the root package.json has ${JSON.stringify(root[field])}; make them equal (the root's is the one every artifact ships)`,
      );
    }
  }
  const shared = Object.fromEntries(SHARED_FIELDS.filter((field) => root[field] !== undefined).map((field) => [field, root[field]]));
  const { name, ...rest } = template;
  return { name, ...shared, ...rest };
}
