/** The shapes of the sandbox's framework catalogue: one entry per real framework, with control sets for verified ones. */

/** One control (requirement, subcategory, article paragraph) of a verified framework's control set. */
export interface Control {
  /** The public identifier, e.g. `GV.OC-01`, `164.308(a)(1)(ii)(A)`, `Art. 32(1)`, `A.5.1`. */
  id: string;
  /** A short title (official short titles for ISO/PCI/CIS, paraphrases elsewhere). */
  title: string;
  /** The family the control belongs to, e.g. `Govern (GV) – Organizational Context (GV.OC)`. */
  group: string;
  /** What the control expects, in our own words. */
  description: string;
  /** 5–15 words or phrases a policy that satisfies the control would contain (synonyms included). */
  keywords: string[];
  /** Short statements of the control's intent as policies phrase them (paraphrases.ts). */
  paraphrases?: string[];
}

/** A dated milestone of a framework (publication, amendment, enforcement date). */
interface FrameworkUpdate {
  /** YYYY-MM-DD */
  date: string;
  title: string;
  summary: string;
  url?: string;
}

export interface FrameworkEntry {
  slug: string;
  name: string;
  shortName: string;
  aliases: string[];
  regulator: string;
  jurisdiction: string;
  /**
   * Region codes discovery matches jurisdictions against: `EU`, `UK`, `US`, `US-CA`, `US-NY`, `CA`
   * (Canada), `BR`, `AU`, `SG`, `JP`, and `INTL` for standards used worldwide.
   */
  regions: string[];
  sector: string;
  /** Who has to comply or who typically adopts it, in one sentence. */
  appliesTo: string;
  sourceUrl: string;
  verified: boolean;
  version: string;
  description: string;
  /** Words and phrases discovery ranks against (domain, data types, activities). */
  topics: string[];
  /** Dated, newest last: what the review loop's "pull framework updates" reads. */
  updates: FrameworkUpdate[];
  /** Present for verified frameworks (mapping uses them). */
  controls?: Control[];
}
