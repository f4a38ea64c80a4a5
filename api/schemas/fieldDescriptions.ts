/**
 * What each request field means, written for assistants: the MCP tools' input schemas and the OpenAPI
 * document show these. They live apart from the request schemas (requests.ts) so that what bundles
 * the schemas without needing the words, the n8n nodes' client above all, does not carry them: n8n
 * loads every installed node at start-up (the trigger's 150 kB target, scripts/build-n8n.mjs).
 * describeRequestFields() attaches them to the schemas' own field instances in zod's registry, where
 * z.toJSONSchema reads them exactly as if each field had been written with .describe().
 */
import * as z from 'zod/v4/mini';
import {
  createCheckoutInput, downloadDocumentInput, generateDocumentInput, getFrameworkInput, getJobInput, getLibraryDocumentInput,
  ingestLibraryDocumentInput, listLibraryInput, mapDocumentInput, refreshLibraryDocumentInput, searchLibraryInput,
  setAutoTopUpInput, setCalendarInput, suggestFrameworksInput,
} from './requests.js';
import { LIMITS } from './common.js';
import { unwrap } from './miniExtras.js';

/**
 * Field schema → its description. Shared instances (a category, a job id) are described once for
 * every operation using them. A function, so that loading this module builds no schema.
 */
function fieldDescriptions(): ReadonlyArray<readonly [z.ZodMiniType, string]> {
  // Held wrapped (optional) by generateDocument: described as what the wrapper holds (the registry is keyed by instance).
  const generate = generateDocumentInput.def.in;
  const organisation = unwrap(generate.shape.organisation);
  return [
    [unwrap(ingestLibraryDocumentInput.shape.tags), 'Tags, as an array or a comma-separated string, e.g. ["security", "access"]. Free text you choose; the tags already in use are in listLibrary.'],
    [suggestFrameworksInput.shape.query, 'What the organisation needs, in plain language, e.g. "health data privacy in the US". From the user.'],
    [suggestFrameworksInput.shape.jurisdiction, 'Country or region to narrow the search, e.g. "US" or "EU". From the user.'],
    [suggestFrameworksInput.shape.domain, 'Sector or subject, e.g. "healthcare" or "payments". From the user.'],
    [suggestFrameworksInput.shape.regulator, 'A regulator to prefer, e.g. "HHS". From the user.'],
    [suggestFrameworksInput.shape.description, 'A longer description of the organisation, e.g. "a 40-person telehealth startup storing patient records". From the user.'],
    [organisation.shape.name, 'The organisation\'s name, e.g. "Acme Health". From the user.'],
    [organisation.shape.sector, 'Its sector, e.g. "healthcare". From the user.'],
    [organisation.shape.country, 'Its country, e.g. "US". From the user.'],
    [organisation, 'The organisation to personalise the document for (name, sector, country); from the user.'],
    [generate.shape.framework, 'The framework to write for: a slug or name, e.g. "hipaa-security" or "ISO 27001". From getCapabilities (verifiedFrameworks) or suggestFrameworks.'],
    [generate.shape.standard, 'Alias of framework.'],
    [generate.shape.name, 'Alias of framework.'],
    [generate.shape.type, 'The document type id, e.g. "access_control_policy"; the service\'s default when left out. The ids are listed by getCapabilities (documentTypes).'],
    [generate.shape.documentType, 'Alias of type.'],
    [generate.shape.jurisdiction, 'Jurisdiction to write for, e.g. "US". From the user.'],
    [generate.shape.company, 'The company named in the document, e.g. "Acme Health". From the user.'],
    [generate.shape.sector, 'The company\'s sector, e.g. "healthcare". From the user.'],
    [generate.shape.context, 'Free text the document should take into account, e.g. "we run on AWS; 12 employees". From the user.'],
    [generate.shape.humanize, 'Rewrite the text in a plainer, less formulaic style (true) or not (false, the default).'],
    [mapDocumentInput.shape.framework, 'A verified framework slug, e.g. "hipaa-security". From getCapabilities (verifiedFrameworks).'],
    [mapDocumentInput.shape.content, 'The policy text to map, e.g. the text of a policy the user pasted or a library document\'s content (getLibraryDocument with include=content).'],
    [mapDocumentInput.shape.title, 'A title for the report, e.g. "Access control policy". Your choice.'],
    [mapDocumentInput.shape.file, 'An upload (DOCX, PDF, Excel, PowerPoint or text) instead of content.'],
    [getJobInput.shape.jobId, 'The job id (a UUID such as 3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a), as returned by generateDocument, mapDocument, ingestLibraryDocument or refreshLibraryDocument.'],
    [downloadDocumentInput.shape.format, 'The download format: json (parsed), md (text), pdf or docx (files); json when left out.'],
    [getLibraryDocumentInput.shape.id, 'The library document id, e.g. "doc_70eaed12", as returned by listLibrary, searchLibrary or ingestLibraryDocument\'s job.'],
    [ingestLibraryDocumentInput.shape.category, 'A library category, e.g. "Policies". Free text; the categories in use are in listLibrary.'],
    [ingestLibraryDocumentInput.shape.title, 'The document\'s title, e.g. "Access control policy". From the document (its first heading) or the user.'],
    [ingestLibraryDocumentInput.shape.content, `The document's full text, ${LIMITS.libraryMinChars} to ${LIMITS.libraryMaxChars.toLocaleString('en-US')} characters (Unicode code points), not only white space. From the user or a file they shared.`],
    [ingestLibraryDocumentInput.shape.filename, 'Where the document lives, e.g. "policies/access.md"; shown in listings.'],
    [refreshLibraryDocumentInput.shape.content, `The document's new full text, ${LIMITS.libraryMinChars} to ${LIMITS.libraryMaxChars.toLocaleString('en-US')} characters (Unicode code points), not only white space.`],
    [listLibraryInput.shape.cursor, 'Where the next page starts: the nextCursor of the previous listLibrary answer.'],
    [listLibraryInput.shape.page, 'Page number, from 1, e.g. 2 (when the service pages by number).'],
    [listLibraryInput.shape.limit, 'Documents per page, e.g. 20.'],
    [listLibraryInput.shape.tag, 'Only documents with this tag, e.g. "security".'],
    [getLibraryDocumentInput.shape.include, '"content" to include the stored text as well as the metadata.'],
    [searchLibraryInput.shape.query, 'What to look for, in words, e.g. "encryption at rest" or "who reviews access quarterly". From the user.'],
    [searchLibraryInput.shape.limit, 'How many documents to return at most, e.g. 5.'],
    [getFrameworkInput.shape.slug, 'The framework slug, e.g. "hipaa-security". From getCapabilities (verifiedFrameworks) or suggestFrameworks.'],
    [createCheckoutInput.shape.pack, 'The credit pack: pack10 (US$10) to pack500 (US$500); getBilling lists each pack\'s tokens.'],
    [setAutoTopUpInput.shape.enabled, 'true to top up automatically, false to stop.'],
    [setAutoTopUpInput.shape.thresholdTokens, `Top up when the balance drops below this many tokens, at least ${LIMITS.autoTopUpMinThreshold.toLocaleString('en-US')}, e.g. 500000. Required when enabled is true; from the user.`],
    [setCalendarInput.shape.cadence, 'How often a review is due: none, monthly or quarterly. From the user.'],
    [setCalendarInput.shape.firstReviewAt, 'When the first review is due, ISO 8601, e.g. "2026-12-01T09:00:00Z". From the user.'],
  ];
}

let described = false;

/** Registers the descriptions (once): call before generating JSON Schema for assistants or the OpenAPI document. */
export function describeRequestFields(): void {
  if (described) return;
  described = true;
  for (const [schema, description] of fieldDescriptions()) z.globalRegistry.add(schema, { description });
}
