/** The OPC package around the document: content types, relationships, settings and document properties. */
import { escapeXml, XML_DECLARATION } from '../xml.js';
import { BODY_RELATIONSHIP } from './documentBody.js';
import { NS } from './wordXml.js';

const RELATIONSHIP_TYPE = {
  officeDocument: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument',
  coreProperties: 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties',
  extendedProperties: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties',
  styles: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles',
  numbering: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering',
  settings: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings',
  header: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/header',
  footer: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer',
} as const;

const CONTENT_TYPE = {
  relationships: 'application/vnd.openxmlformats-package.relationships+xml',
  xml: 'application/xml',
  document: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
  styles: 'application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml',
  numbering: 'application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml',
  settings: 'application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml',
  header: 'application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml',
  footer: 'application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml',
  coreProperties: 'application/vnd.openxmlformats-package.core-properties+xml',
  extendedProperties: 'application/vnd.openxmlformats-officedocument.extended-properties+xml',
} as const;

/** Part names inside the package. */
export const PART = {
  contentTypes: '[Content_Types].xml',
  packageRelationships: '_rels/.rels',
  document: 'word/document.xml',
  documentRelationships: 'word/_rels/document.xml.rels',
  styles: 'word/styles.xml',
  numbering: 'word/numbering.xml',
  settings: 'word/settings.xml',
  header: 'word/header1.xml',
  footer: 'word/footer1.xml',
  coreProperties: 'docProps/core.xml',
  extendedProperties: 'docProps/app.xml',
} as const;

function relationships(entries: Array<[id: string, type: string, target: string]>): string {
  const items = entries.map(([id, type, target]) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`).join('');
  return `${XML_DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;
}

export function contentTypesXml(withHeader: boolean): string {
  const override = (part: string, type: string) => `<Override PartName="/${part}" ContentType="${type}"/>`;
  return (
    `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    `<Default Extension="rels" ContentType="${CONTENT_TYPE.relationships}"/><Default Extension="xml" ContentType="${CONTENT_TYPE.xml}"/>` +
    override(PART.document, CONTENT_TYPE.document) +
    override(PART.styles, CONTENT_TYPE.styles) +
    override(PART.numbering, CONTENT_TYPE.numbering) +
    override(PART.settings, CONTENT_TYPE.settings) +
    (withHeader ? override(PART.header, CONTENT_TYPE.header) : '') +
    override(PART.footer, CONTENT_TYPE.footer) +
    override(PART.coreProperties, CONTENT_TYPE.coreProperties) +
    override(PART.extendedProperties, CONTENT_TYPE.extendedProperties) +
    '</Types>'
  );
}

export function packageRelationshipsXml(): string {
  return relationships([
    ['rId1', RELATIONSHIP_TYPE.officeDocument, PART.document],
    ['rId2', RELATIONSHIP_TYPE.coreProperties, PART.coreProperties],
    ['rId3', RELATIONSHIP_TYPE.extendedProperties, PART.extendedProperties],
  ]);
}

/** Targets are relative to word/. */
export function documentRelationshipsXml(withHeader: boolean): string {
  return relationships([
    ['rIdStyles', RELATIONSHIP_TYPE.styles, 'styles.xml'],
    ['rIdNumbering', RELATIONSHIP_TYPE.numbering, 'numbering.xml'],
    ['rIdSettings', RELATIONSHIP_TYPE.settings, 'settings.xml'],
    ...(withHeader ? [[BODY_RELATIONSHIP.header, RELATIONSHIP_TYPE.header, 'header1.xml'] as [string, string, string]] : []),
    [BODY_RELATIONSHIP.footer, RELATIONSHIP_TYPE.footer, 'footer1.xml'],
  ]);
}

export function settingsXml(): string {
  return (
    `${XML_DECLARATION}<w:settings xmlns:w="${NS.w}"><w:defaultTabStop w:val="720"/><w:characterSpacingControl w:val="doNotCompress"/>` +
    '<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat></w:settings>'
  );
}

interface DocumentProperties {
  title: string;
  subject?: string;
  creator: string;
  /** Keywords, e.g. the watermark, so file browsers show it. */
  keywords?: string;
  created?: Date;
}

export function corePropertiesXml(properties: DocumentProperties): string {
  const date = properties.created ? properties.created.toISOString().replace(/\.\d{3}Z$/, 'Z') : undefined;
  return (
    `${XML_DECLARATION}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
    'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" ' +
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    `<dc:title>${escapeXml(properties.title)}</dc:title>` +
    (properties.subject ? `<dc:subject>${escapeXml(properties.subject)}</dc:subject>` : '') +
    `<dc:creator>${escapeXml(properties.creator)}</dc:creator>` +
    (properties.keywords ? `<cp:keywords>${escapeXml(properties.keywords)}</cp:keywords>` : '') +
    (date ? `<dcterms:created xsi:type="dcterms:W3CDTF">${date}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${date}</dcterms:modified>` : '') +
    '</cp:coreProperties>'
  );
}

export function extendedPropertiesXml(application: string): string {
  return (
    `${XML_DECLARATION}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" ` +
    `xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Application>${escapeXml(application)}</Application></Properties>`
  );
}
