/** word/styles.xml and word/numbering.xml: the styles the body uses and the bullet list definition. */
import { XML_DECLARATION } from '../xml.js';
import { CONTENT_WIDTH_TWIPS, NS } from './wordXml.js';

/** Style ids used by the body, header and footer. */
export const STYLE = {
  title: 'Title',
  subtitle: 'Subtitle',
  watermarkNotice: 'WatermarkNotice',
  meta: 'Meta',
  heading1: 'Heading1',
  listBullet: 'ListBullet',
  tableText: 'TableText',
  tableGrid: 'TableGrid',
  header: 'Header',
  footer: 'Footer',
} as const;

export const BULLET_NUMBERING_ID = 1;

const FONT = 'Calibri';

export function stylesXml(): string {
  const paragraphStyle = (id: string, name: string, body: string, extra = '') =>
    `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/><w:basedOn w:val="Normal"/>${extra}<w:qFormat/>${body}</w:style>`;
  return `${XML_DECLARATION}<w:styles xmlns:w="${NS.w}">
<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="${FONT}" w:hAnsi="${FONT}" w:eastAsia="${FONT}" w:cs="${FONT}"/><w:sz w:val="22"/><w:szCs w:val="22"/><w:lang w:val="en-GB" w:eastAsia="en-US" w:bidi="ar-SA"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="120" w:line="264" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>
<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/><w:uiPriority w:val="1"/><w:semiHidden/><w:unhideWhenUsed/></w:style>
<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:uiPriority w:val="99"/><w:semiHidden/><w:unhideWhenUsed/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>
${paragraphStyle(STYLE.title, 'Title', '<w:pPr><w:spacing w:after="80" w:line="240" w:lineRule="auto"/><w:contextualSpacing/></w:pPr><w:rPr><w:b/><w:color w:val="1F2A44"/><w:kern w:val="28"/><w:sz w:val="44"/><w:szCs w:val="44"/></w:rPr>', '<w:next w:val="Normal"/>')}
${paragraphStyle(STYLE.subtitle, 'Subtitle', '<w:pPr><w:spacing w:after="160"/></w:pPr><w:rPr><w:color w:val="595959"/><w:sz w:val="26"/><w:szCs w:val="26"/></w:rPr>', '<w:next w:val="Normal"/>')}
${paragraphStyle(STYLE.watermarkNotice, 'Watermark Notice', '<w:pPr><w:pBdr><w:top w:val="single" w:sz="6" w:space="4" w:color="A6A6A6"/><w:left w:val="single" w:sz="6" w:space="4" w:color="A6A6A6"/><w:bottom w:val="single" w:sz="6" w:space="4" w:color="A6A6A6"/><w:right w:val="single" w:sz="6" w:space="4" w:color="A6A6A6"/></w:pBdr><w:shd w:val="clear" w:color="auto" w:fill="F2F2F2"/><w:spacing w:before="120" w:after="200"/><w:jc w:val="center"/></w:pPr><w:rPr><w:b/><w:color w:val="7F7F7F"/></w:rPr>')}
${paragraphStyle(STYLE.meta, 'Meta', '<w:pPr><w:spacing w:after="0"/></w:pPr><w:rPr><w:color w:val="404040"/><w:sz w:val="20"/><w:szCs w:val="20"/></w:rPr>')}
${paragraphStyle(STYLE.heading1, 'heading 1', '<w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="360" w:after="120"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:color w:val="1F2A44"/><w:sz w:val="30"/><w:szCs w:val="30"/></w:rPr>', '<w:next w:val="Normal"/>')}
${paragraphStyle(STYLE.listBullet, 'List Bullet', `<w:pPr><w:numPr><w:numId w:val="${BULLET_NUMBERING_ID}"/></w:numPr><w:spacing w:after="60"/><w:contextualSpacing/></w:pPr>`)}
${paragraphStyle(STYLE.tableText, 'Table Text', '<w:pPr><w:spacing w:before="40" w:after="40" w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:sz w:val="20"/><w:szCs w:val="20"/></w:rPr>')}
${paragraphStyle(STYLE.header, 'header', `<w:pPr><w:tabs><w:tab w:val="center" w:pos="${CONTENT_WIDTH_TWIPS / 2}"/><w:tab w:val="right" w:pos="${CONTENT_WIDTH_TWIPS}"/></w:tabs><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:color w:val="7F7F7F"/><w:sz w:val="16"/><w:szCs w:val="16"/></w:rPr>`)}
${paragraphStyle(STYLE.footer, 'footer', `<w:pPr><w:tabs><w:tab w:val="center" w:pos="${CONTENT_WIDTH_TWIPS / 2}"/><w:tab w:val="right" w:pos="${CONTENT_WIDTH_TWIPS}"/></w:tabs><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:color w:val="7F7F7F"/><w:sz w:val="16"/><w:szCs w:val="16"/></w:rPr>`)}
<w:style w:type="table" w:styleId="${STYLE.tableGrid}"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/><w:uiPriority w:val="39"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="A6A6A6"/><w:left w:val="single" w:sz="4" w:space="0" w:color="A6A6A6"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="A6A6A6"/><w:right w:val="single" w:sz="4" w:space="0" w:color="A6A6A6"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="A6A6A6"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="A6A6A6"/></w:tblBorders></w:tblPr></w:style>
</w:styles>`;
}

export function numberingXml(): string {
  return `${XML_DECLARATION}<w:numbering xmlns:w="${NS.w}">
<w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="singleLevel"/><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="\u2022"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="360" w:hanging="360"/></w:pPr><w:rPr><w:rFonts w:ascii="${FONT}" w:hAnsi="${FONT}"/></w:rPr></w:lvl></w:abstractNum>
<w:num w:numId="${BULLET_NUMBERING_ID}"><w:abstractNumId w:val="0"/></w:num>
</w:numbering>`;
}
