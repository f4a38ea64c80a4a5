/** The public shapes of the sandbox's evidence-mapping engine. */

/** One control as the catalogue carries it. */
export interface MappingControl {
  id: string;
  title: string;
  group: string;
  description: string;
  /** Words and phrases a policy satisfying the control would contain. */
  keywords: readonly string[];
  /** Further ways policies state the control's intent, read like keywords. */
  paraphrases?: readonly string[];
}

export interface MappingFramework {
  slug: string;
  name: string;
  version: string;
  controls: readonly MappingControl[];
}

export interface MapTextInput {
  /** The caller's document; a combined policy set marks each file with `=== FILE: <path> ===`. */
  text: string;
  title?: string;
  framework: MappingFramework;
}

export type ControlStatus = 'covered' | 'partial' | 'missing';

export interface EvidenceLocation {
  /** The file named by the nearest preceding `=== FILE: path ===` header. */
  source?: string;
  /** 1-based line where the quoted sentence starts. */
  line: number;
  /** The nearest preceding markdown heading. */
  section?: string;
}

interface EvidenceQuote {
  /** A sentence of the text, at most 300 characters. */
  quote: string;
  location: EvidenceLocation;
}

export interface ControlResult {
  id: string;
  title: string;
  status: ControlStatus;
  /** 0..1: share of the control's keyword weight its best evidence covers (1 = fully evidenced). */
  score: number;
  evidence: EvidenceQuote[];
}

export interface MappingGap {
  controlId: string;
  title: string;
  status: 'partial' | 'missing';
  /** What is not evidenced: the control's key terms no evidence covers. */
  missing: string;
  /** An actionable sentence built from the control description. */
  recommendation: string;
}

/** The mappingReport response shape without jobId, mode and generatedAt (the server adds them). */
export interface MappingResult {
  framework: { slug: string; name: string; version: string };
  title?: string;
  /** Percent 0..100, one decimal: covered counts 1, partial 0.5, averaged over controls. */
  coverage: number;
  summary: { controls: number; covered: number; partial: number; missing: number };
  controls: ControlResult[];
  gaps: MappingGap[];
}

/** A mapping report as the server stores it (server fields optional). */
export interface MappingReportInput extends MappingResult {
  jobId?: string;
  mode?: string;
  generatedAt?: string;
}
