/** The `humanize` option: a deterministic rewrite of formal policy wording into plain English. */

const REWRITES: Array<[RegExp, string]> = [
  [/\bshall not\b/g, 'must not'],
  [/\bshall\b/g, 'must'],
  [/\bis required to\b/g, 'must'],
  [/\bare required to\b/g, 'must'],
  [/\bin accordance with\b/g, 'in line with'],
  [/\bprior to\b/g, 'before'],
  [/\bin order to\b/g, 'to'],
  [/\bin the event of\b/g, 'if there is'],
  [/\bat a minimum\b/g, 'at least'],
  [/\bpursuant to\b/g, 'under'],
  [/\bwith respect to\b/g, 'about'],
  [/\bsubsequently\b/g, 'then'],
  [/\bthereafter\b/g, 'after that'],
  [/\bensures\b/g, 'makes sure'],
  [/\bensure\b/g, 'make sure'],
  [/\bEnsure\b/g, 'Make sure'],
  [/\bpersonnel\b/g, 'staff'],
  [/\bPersonnel\b/g, 'Staff'],
  [/\butilise\b/g, 'use'],
  [/\bcommence\b/g, 'start'],
  [/\bfacilitate\b/g, 'help'],
  [/\bsufficient\b/g, 'enough'],
  [/\bobtain\b/g, 'get'],
  [/\bdemonstrate\b/g, 'show'],
  [/\bproportionate to\b/g, 'in line with'],
  [/\bimplement\b/g, 'put in place'],
  [/\bImplement\b/g, 'Put in place'],
  [/\bestablish\b/g, 'set up'],
  [/\bEstablish\b/g, 'Set up'],
  [/\bprohibited\b/g, 'not allowed'],
  [/\bterminate\b/g, 'end'],
];

export function plainLanguage(text: string): string {
  let out = text;
  for (const [pattern, replacement] of REWRITES) out = out.replace(pattern, replacement);
  return out;
}
