import type { DocumentModel } from '../../documentModel.js';
import { documentDate } from '../documentDate.js';
import { documentXml } from './documentBody.js';
import { footerXml, headerXml } from './headerFooter.js';
import {
  contentTypesXml,
  corePropertiesXml,
  documentRelationshipsXml,
  extendedPropertiesXml,
  packageRelationshipsXml,
  PART,
  settingsXml,
} from './packageParts.js';
import { numberingXml, stylesXml } from './styles.js';
import { zipPackage } from './zipPackage.js';

const DOCX_CREATOR = 'Compliance sandbox';

/** The model as a Word document (OOXML package); the same model always gives the same bytes. */
export function renderDocx(model: DocumentModel): Uint8Array {
  const withHeader = Boolean(model.watermark);
  return zipPackage([
    [PART.contentTypes, contentTypesXml(withHeader)],
    [PART.packageRelationships, packageRelationshipsXml()],
    [PART.document, documentXml(model)],
    [PART.documentRelationships, documentRelationshipsXml(withHeader)],
    [PART.styles, stylesXml()],
    [PART.numbering, numberingXml()],
    [PART.settings, settingsXml()],
    ...(model.watermark ? [[PART.header, headerXml(model.watermark)] as [string, string]] : []),
    [PART.footer, footerXml(model.title)],
    [PART.coreProperties, corePropertiesXml({ title: model.title, subject: model.subtitle, creator: DOCX_CREATOR, keywords: model.watermark, created: documentDate(model) })],
    [PART.extendedProperties, extendedPropertiesXml(DOCX_CREATOR)],
  ]);
}
